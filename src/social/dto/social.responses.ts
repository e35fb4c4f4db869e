import { ApiProperty } from '@nestjs/swagger';
import { ChartDocument, SongDocument } from '../../presenters/catalog.presenter.js';
import { PbDocument } from '../../presenters/pb.presenter.js';
import { UserDocument } from '../../presenters/user.presenter.js';

/** The best PBs of a user and their rivals on a GPT. */
export class RivalPbLeaderboardResponse {
  @ApiProperty({ type: [PbDocument], description: 'Best first (ties: user id, chart id).' }) pbs!: PbDocument[];
  @ApiProperty({ type: [SongDocument] }) songs!: SongDocument[];
  @ApiProperty({ type: [ChartDocument] }) charts!: ChartDocument[];
  @ApiProperty({ type: [UserDocument] }) users!: UserDocument[];
}

/** A user's rivals' PBs on a chart, then the user's own. */
export class RivalChartPbsResponse {
  @ApiProperty({ type: [PbDocument], description: "The rivals' PBs, best first, then the user's own (absent when they have none)." })
  pbs!: PbDocument[];
  @ApiProperty({ type: [UserDocument], description: "The user's rivals on the GPT." }) rivals!: UserDocument[];
}
