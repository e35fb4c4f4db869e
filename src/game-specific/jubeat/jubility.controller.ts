import { Controller, Get } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { TargetUser } from '../../http/auth/access.decorators.js';
import type { UserRow } from '../../http/auth/auth-context.js';
import { JubilityResponse } from '../dto/game-specific.responses.js';
import { JubilityService } from './jubility.service.js';

/** jubeat's own user route (Tachi's web client's jubility breakdown). */
@ApiTags('game-specific')
@ApiNotFoundResponse({ description: 'Unknown user.' })
@Controller('users/:userID/games/jubeat/Single')
export class JubilityController {
  constructor(private readonly jubility: JubilityService) {}

  @Get('jubility')
  @ApiOperation({
    summary:
      "{songs, charts, pickUp, other}: the PBs counted in the user's jubility, best first: up to 30 on PICK UP songs and up to 30 on the others, one per song and difficulty family. Empty lists for a user without jubeat PBs. Public.",
  })
  @ApiOkResponse({ type: JubilityResponse })
  get(@TargetUser() user: UserRow): Promise<JubilityResponse> {
    return this.jubility.breakdown(user.id);
  }
}
