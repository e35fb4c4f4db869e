import { PrimaryRead } from '../http/read-routing/primary-read.js';
import { Controller, Get } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { TargetUser } from '../http/auth/access.decorators.js';
import type { UserRow } from '../http/auth/auth-context.js';
import { RecentImportTypeDocument } from './dto/import.responses.js';
import { ImportReadService } from './import-read.service.js';

/** A user's import habits, as Tachi's import page shows them. Public, as Tachi's. */
@ApiTags('imports')
@ApiNotFoundResponse({ description: 'Unknown user.' })
@PrimaryRead()
@Controller('users/:userID')
export class UserImportsController {
  constructor(private readonly reads: ImportReadService) {}

  @Get('recent-imports')
  @ApiOperation({
    summary:
      '[{importType, count}]: the import types of the user’s completed imports they asked for (X-User-Intent) in the last 4 weeks, the most used first; MyPageScraper CSVs left out.',
  })
  @ApiOkResponse({ type: RecentImportTypeDocument, isArray: true })
  recentImports(@TargetUser() user: UserRow): Promise<RecentImportTypeDocument[]> {
    return this.reads.recentImportTypes(user.id);
  }
}
