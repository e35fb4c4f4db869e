import { Injectable } from '@nestjs/common';
import { randomHex } from '../common/crypto.js';
import type { Queryable } from '../database/database.js';
import { InvitesRepository } from '../repositories/invites.repository.js';
import type { InviteRow } from '../database/schema.js';

/** Invite codes for INVITE_ONLY deployments; created by `npm run cli -- invites create`. */
@Injectable()
export class InvitesService {
  constructor(private readonly invites: InvitesRepository) {}

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
}
