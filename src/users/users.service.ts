import { BadRequestException, ConflictException, Injectable } from '@nestjs/common';
import { confirmPassword } from '../auth/confirm-password.js';
import type { UserRow } from '../http/auth/auth-context.js';
import { GameStatsRepository } from '../repositories/game-stats.repository.js';
import type { RankedGameStatsDocument } from './dto/user.responses.js';
import type { PatchUserDto } from './dto/users.dto.js';
import { normaliseSocial, SOCIAL_NETWORKS } from './social-media.js';
import { toUserDocument, type UserDocument } from '../presenters/user.presenter.js';
import { UsersRepository, type ProfileChanges } from '../repositories/users.repository.js';
import { AccountRemovalService } from '../scoring/removal/account-removal.service.js';
import { UserBusyError } from '../scoring/import-lock.js';

export const USER_LIST_LIMIT = 100;

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly gameStatsRepository: GameStatsRepository,
    private readonly accounts: AccountRemovalService,
  ) {}

  /** Deletes the user's own account once their password is confirmed. */
  async deleteAccount(user: UserRow, password: string): Promise<void> {
    await confirmPassword(this.users, user.id, password);
    await this.accounts.deleteAccount(user.id).catch((err: unknown) => {
      if (err instanceof UserBusyError) throw new ConflictException('You have an import in progress; delete your account once it has finished.');
      throw err;
    });
  }

  async list(online: boolean, search: string | undefined): Promise<UserDocument[]> {
    const rows = await this.users.list({ online, search: search || undefined, limit: USER_LIST_LIMIT });
    return rows.map(toUserDocument);
  }

  async patch(user: UserRow, dto: PatchUserDto): Promise<UserDocument> {
    const changes: ProfileChanges = {};
    if (dto.about !== undefined) changes.about = dto.about;
    if (dto.status !== undefined) changes.status = dto.status;
    const socials: NonNullable<ProfileChanges['socialMedia']> = {};
    for (const network of SOCIAL_NETWORKS) {
      const value = dto[network];
      if (value !== undefined) socials[network] = value === null ? null : normaliseSocial(network, value);
    }
    if (Object.keys(socials).length) changes.socialMedia = socials;
    if (Object.keys(changes).length === 0) throw new BadRequestException('Nothing was provided to modify.');
    return toUserDocument(await this.users.updateProfile(user.id, changes));
  }

  /** Sets a user's auth level (0 banned … 3 administrator); undefined when no user has this username. */
  /** A user by case-insensitive username, or undefined. */
  findByUsername(username: string): Promise<UserRow | undefined> {
    return this.users.findByUsername(username);
  }

  setAuthLevel(username: string, level: number): Promise<Pick<UserRow, 'id' | 'username'> | undefined> {
    return this.users.setAuthLevelByUsername(username, level);
  }

  async gameStats(userID: number): Promise<RankedGameStatsDocument[]> {
    const [rows, rankings] = await Promise.all([this.gameStatsRepository.listForUser(userID), this.gameStatsRepository.rankingsForUser(userID)]);
    return rows.map((row) => ({
      userID: row.userID,
      game: row.game,
      playtype: row.playtype,
      ratings: row.ratings,
      classes: row.classes,
      __rankingData: rankings.get(`${row.game}:${row.playtype}`) ?? {},
    }));
  }
}
