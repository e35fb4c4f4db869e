import { Injectable, NotFoundException } from '@nestjs/common';
import type { Permission } from '../common/permissions.js';
import { randomHex, sha256Hex } from '../common/crypto.js';
import { FOREIGN_KEY_VIOLATION, sqlState } from '../common/sql-state.js';
import { ApiKeysRepository } from '../repositories/api-keys.repository.js';
import type { ApiKeyRow } from '../database/schema.js';

export interface IssueKey {
  userID: number;
  identifier: string;
  permissions: readonly Permission[];
  fromAPIClient: string | null;
}

/** A new token: 40 hex characters, as Tachi clients expect. Only its SHA-256 is stored. */
export function newApiToken(): { token: string; tokenHash: string } {
  const token = randomHex(20);
  return { token, tokenHash: sha256Hex(token) };
}

/** A row naming a client that was deleted meanwhile fails its foreign key: that is a 404. */
export async function whileClientExists<T>(clientID: string | null, store: () => Promise<T>): Promise<T> {
  try {
    return await store();
  } catch (err) {
    if (clientID !== null && sqlState(err) === FOREIGN_KEY_VIOLATION) throw new NotFoundException(`The client ${clientID} does not exist.`);
    throw err;
  }
}

@Injectable()
export class ApiKeysService {
  constructor(private readonly keys: ApiKeysRepository) {}

  async issue(key: IssueKey): Promise<{ row: ApiKeyRow; token: string }> {
    const { token, tokenHash } = newApiToken();
    const row = await whileClientExists(key.fromAPIClient, () => this.keys.insert({ ...key, tokenHash }));
    return { row, token };
  }

  list(userID: number): Promise<ApiKeyRow[]> {
    return this.keys.listForUser(userID);
  }

  async revoke(userID: number, keyID: number): Promise<void> {
    if (!(await this.keys.deleteOwned(userID, keyID))) throw new NotFoundException(`This user has no API key ${keyID}.`);
  }
}
