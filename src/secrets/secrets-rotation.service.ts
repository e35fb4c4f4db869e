import { Injectable } from '@nestjs/common';
import { ClientsRepository } from '../repositories/clients.repository.js';
import { IntegrationCredentialsRepository, integrationCredentialsContext } from '../repositories/integration-credentials.repository.js';
import { SecretDecryptError } from './secret-cipher.js';
import { clientSecretContext, SecretsService } from './secrets.service.js';

/** One column of encrypted secrets: how rotation pages through it, writes a value back, and names each value's context. */
interface EncryptedColumn {
  name: string;
  page(after: string | null, limit: number): Promise<{ id: string; value: string }[]>;
  replace(id: string, expected: string, next: string): Promise<boolean>;
  context(id: string): string;
}

export interface RotationReport {
  /** The current key's id. */
  keyID: string;
  /** Values re-encrypted with the current key. */
  reencrypted: number;
  /** Values that already used it. */
  current: number;
  /** Values that changed while being re-encrypted (e.g. a secret reset): already made with the current key. */
  skipped: number;
  /** Values no key here decrypts: where, and why (never the value). */
  failed: { where: string; reason: string }[];
}

const PAGE = 500;

/**
 * Re-encrypts every stored secret made with a previous key (SECRETS_KEY_PREVIOUS, or the key file
 * the embedded database used before SECRETS_KEY was set) with the current SECRETS_KEY; after it,
 * the previous keys can be dropped. Each value is replaced only if unchanged meanwhile. The
 * columns: API clients' secrets and the players' integration credentials.
 */
@Injectable()
export class SecretsRotationService {
  private readonly columns: EncryptedColumn[];

  constructor(
    private readonly secrets: SecretsService,
    clients: ClientsRepository,
    integrations: IntegrationCredentialsRepository,
  ) {
    this.columns = [
      {
        name: 'api_clients.client_secret_encrypted',
        page: async (after, limit) => (await clients.encryptedSecrets(after, limit)).map((r) => ({ id: r.clientID, value: r.value })),
        replace: (id, expected, next) => clients.replaceEncryptedSecret(id, expected, next),
        context: clientSecretContext,
      },
      {
        name: 'integration_credentials.credentials_encrypted',
        page: (after, limit) => integrations.encryptedCredentials(after, limit),
        replace: (id, expected, next) => integrations.replaceEncrypted(id, expected, next),
        context: (id) => integrationCredentialsContext(Number(id.slice(0, id.indexOf(':'))), id.slice(id.indexOf(':') + 1)),
      },
    ];
  }

  /** Throws SecretsUnavailableError when no key is configured. */
  async rotate(): Promise<RotationReport> {
    const keyring = this.secrets.keyring;
    const report: RotationReport = { keyID: keyring.current?.id ?? '', reencrypted: 0, current: 0, skipped: 0, failed: [] };
    // Fails early, before anything is read, when no key is configured.
    keyring.encrypt('', 'rotation check');
    for (const column of this.columns) {
      let after: string | null = null;
      for (;;) {
        const rows = await column.page(after, PAGE);
        if (!rows.length) break;
        after = rows[rows.length - 1].id;
        for (const { id, value } of rows) {
          if (keyring.isCurrent(value)) {
            report.current++;
            continue;
          }
          let plain: string;
          try {
            plain = keyring.decrypt(value, column.context(id));
          } catch (err) {
            if (!(err instanceof SecretDecryptError)) throw err;
            report.failed.push({ where: `${column.name} of ${id}`, reason: err.message });
            continue;
          }
          if (await column.replace(id, value, keyring.encrypt(plain, column.context(id)))) report.reencrypted++;
          else report.skipped++;
        }
      }
    }
    return report;
  }
}
