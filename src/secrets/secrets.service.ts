import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import type { Keyring } from './secret-cipher.js';
import { loadKeyring } from './secrets-key.js';

/**
 * Encrypts and decrypts secrets kept in the database (SECRETS_KEY, SECRETS_KEY_PREVIOUS, or the
 * embedded database's key file, made when the first secret is stored). `context` names where a value lives (table, column, row id): it
 * is authenticated with the value, so a ciphertext copied to another row does not decrypt there.
 * Plain secrets never reach a log through this service: its errors name keys, never values.
 */
@Injectable()
export class SecretsService {
  private readonly logger = new Logger(SecretsService.name);
  private loaded: Keyring | undefined;

  constructor(private readonly config: AppConfig) {}

  /**
   * The keyring, read at first use: the embedded database's key file is made by the first process
   * that stores a secret, not by every CLI command (a `backup` or `restore` run needs none).
   */
  get keyring(): Keyring {
    this.loaded ??= loadKeyring(this.config, (message) => this.logger.warn(message));
    return this.loaded;
  }

  /** Whether new secrets can be encrypted (false only with DATABASE_URL and no SECRETS_KEY). */
  get available(): boolean {
    return this.keyring.available;
  }

  /** Throws SecretsUnavailableError when no key is configured. */
  encrypt(plaintext: string, context: string): string {
    return this.keyring.encrypt(plaintext, context);
  }

  /** Throws SecretDecryptError (wrong key, tampered, unknown format). */
  decrypt(value: string, context: string): string {
    return this.keyring.decrypt(value, context);
  }
}

/** Where an API client's secret is stored encrypted: api_clients.client_secret_encrypted of its row. */
export const clientSecretContext = (clientID: string) => `api_clients.client_secret_encrypted:${clientID}`;
