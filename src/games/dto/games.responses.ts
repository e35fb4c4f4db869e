import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { GameConfigDocument } from '../../presenters/game-config.presenter.js';

export class GamesListResponse {
  @ApiProperty({ type: [String] }) supportedGames!: string[];
  @ApiProperty({ type: 'object', additionalProperties: { $ref: getSchemaPath(GameConfigDocument) }, description: 'Game → GameConfig.' })
  configs!: Record<string, GameConfigDocument>;
}

export { GptConfigResponse } from '../../presenters/game-config.presenter.js';
