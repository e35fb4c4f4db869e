import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { randomHex } from '../common/crypto.js';
import { AppConfig } from '../config/app-config.js';
import type { Queryable } from '../database/database.js';
import { ADMIN_AUTH_LEVEL, type UserRow } from '../http/auth/auth-context.js';
import { InvitesRepository } from '../repositories/invites.repository.js';
import { UsersRepository } from '../repositories/users.repository.js';
import type { InviteRow } from '../database/schema.js';
import { InviteDocument, toInviteDocument, type InviteLimitResponse, type UserInvitesResponse } from '../presenters/account.presenter.js';
import { toUserDocument } from '../presenters/user.presenter.js';
import { inviteAllowance } from './invite-allowance.js';

/**
 * Invite codes for INVITE_ONLY deployments: created by `npm run cli -- invites create`, and by
 * users within their allowance (POST /users/:userID/invites/create).
 */
@Injectable()
export class InvitesService {
  constructor(
    private readonly invites: InvitesRepository,
    private readonly users: UsersRepository,
    private readonly config: AppConfig,
  ) {}

  async create(count: number): Promise<string[]> {
    const codes = Array.from({ length: count }, () => randomHex(20));
    await this.invites.insert(codes, Date.now());
    return codes;
  }

  /** Atomically marks an unused code as used by userID; false when it is unknown or already used. */
  consume(code: string, userID: number, q: Queryable): Promise<boolean> {
    return this.invites.consume(code, userID, q);
  }

  /** Every code, oldest first, with who used it and when. */
  list(): Promise<InviteRow[]> {
    return this.invites.list();
  }

  /** The invites the user created, oldest first, and the users who registered with them. */
  async ofUser(user: UserRow): Promise<UserInvitesResponse> {
    this.assertEnabled();
    const rows = await this.invites.listCreatedBy(user.id);
    const consumerIDs = rows.map((row) => row.consumedBy).filter((id): id is number => id !== null);
    const consumers = await this.users.findManyByIds(consumerIDs);
    return {
      invites: rows.map((row) => toInviteDocument({ ...row, createdBy: user.id })),
      consumers: consumers.sort((a, b) => a.id - b.id).map(toUserDocument),
    };
  }

  /** How many invites the user created, and how many they may. */
  async limit(user: UserRow): Promise<InviteLimitResponse> {
    this.assertEnabled();
    return { invites: await this.invites.countCreatedBy(user.id), limit: this.allowance(user) };
  }

  /** A new invite of the user's: 400 once they created their allowance, unless `requester` is an administrator. */
  async createFor(user: UserRow, requester: UserRow): Promise<InviteDocument> {
    this.assertEnabled();
    const limit = requester.authLevel >= ADMIN_AUTH_LEVEL ? null : this.allowance(user);
    const row = await this.invites.createFor(user.id, randomHex(20), Date.now(), limit);
    if (!row)
      throw new BadRequestException(
        `You already created all ${limit} of the invites you may create for now (${this.config.INVITE_BATCH_SIZE} more every 28 days since joining, at most ${this.config.INVITE_CAP}).`,
      );
    return toInviteDocument({ ...row, createdBy: user.id });
  }

  private allowance(user: UserRow): number {
    return inviteAllowance(user, Date.now(), {
      batchSize: this.config.INVITE_BATCH_SIZE,
      betaBonus: this.config.INVITE_BETA_BONUS,
      cap: this.config.INVITE_CAP,
    });
  }

  /** Users' invites exist only on invite-only deployments: 404 elsewhere, as Tachi answers with invites disabled. */
  private assertEnabled(): void {
    if (!this.config.INVITE_ONLY) throw new NotFoundException('Invites are only available when this server is invite-only (INVITE_ONLY=true).');
  }
}
