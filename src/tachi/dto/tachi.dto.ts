import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { OptionalNotNull } from '../../common/validation/validators.js';
import { IMPORT_TYPES } from '../../imports/import-types/registry.js';
import { FailedImportDocument, ImportDocument } from '../../presenters/import.presenter.js';
import { UserDocument } from '../../presenters/user.presenter.js';

const IMPORT_TYPE_NAMES = IMPORT_TYPES.map((t) => t.name);

export class UserImportsQuery {
  @ApiPropertyOptional({ enum: IMPORT_TYPE_NAMES, description: 'Only imports of this type.' })
  @OptionalNotNull()
  @IsIn(IMPORT_TYPE_NAMES, { message: `importType must be one of: ${IMPORT_TYPE_NAMES.join(', ')}` })
  importType?: string;

  @ApiPropertyOptional({ enum: ['true', 'false'], description: 'Only imports the user asked for (true) or did not (false).' })
  @OptionalNotNull()
  @IsIn(['true', 'false'], { message: 'userIntent must be true or false' })
  userIntent?: 'true' | 'false';
}

/** Tachi's GET /config (tachi-common's TachiServerCoreConfig at HEAD): what the web client and the bots bootstrap from. */
export class TachiConfigResponse {
  @ApiProperty({ example: 'Score Tracker' }) NAME!: string;
  @ApiProperty({ enum: ['omni'], description: "Which of Tachi's deployments this is like: omni, every game." }) TYPE!: 'omni';
  @ApiProperty({ type: [String], description: 'Every game this service tracks.' }) GAMES!: string[];
  @ApiProperty({ type: [String], description: 'Every import type this service accepts.' }) IMPORT_TYPES!: string[];
  @ApiProperty({
    description: 'Whether POST /auth/register is open: always true here (with INVITE_ONLY it needs an invite code; Tachi answers 501 when false).',
  })
  SIGNUPS_ENABLED!: boolean;
}

/** Tachi's GET /imports: the site's latest completed imports and their users. */
export class RecentImportsResponse {
  @ApiProperty({ type: [ImportDocument], description: 'The 500 latest completed imports, latest finished first.' }) imports!: ImportDocument[];
  @ApiProperty({
    type: [UserDocument],
    description: "The users of those imports, each once (Tachi's user documents: this route is served under API_PROFILE=tachi).",
  })
  users!: UserDocument[];
}

/** Tachi's GET /imports/failed: the site's latest failed imports and their users. */
export class RecentFailedImportsResponse {
  @ApiProperty({ type: [FailedImportDocument], description: 'The 500 latest failed imports, latest started first.' }) failedImports!: FailedImportDocument[];
  @ApiProperty({
    type: [UserDocument],
    description: "The users of those imports, each once (Tachi's user documents: this route is served under API_PROFILE=tachi).",
  })
  users!: UserDocument[];
}
