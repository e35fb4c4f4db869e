import { Injectable } from '@nestjs/common';
import { FailedImportDocument, ImportDocument, toFailedImportDocument, toImportDocument } from '../presenters/import.presenter.js';
import { ImportsRepository } from '../repositories/imports.repository.js';
import { RelatedDocuments } from '../repositories/related-documents.js';
import type { UserDocument } from '../presenters/user.presenter.js';

/** As Tachi: a user's import history holds their 500 latest. */
export const USER_IMPORTS_LIMIT = 500;
/** As Tachi: the site's import history (the client's import analysers) holds the 500 latest. */
export const RECENT_IMPORTS_LIMIT = 500;

/** Which of a user's imports to list: of one import type, and asked for by the user or not. */
export interface UserImportsFilter {
  importType?: string;
  userIntent?: boolean;
}

/** The reads of Tachi's routes that the spec leaves out. */
@Injectable()
export class TachiService {
  constructor(
    private readonly imports: ImportsRepository,
    private readonly related: RelatedDocuments,
  ) {}

  /** The user's 500 latest completed imports, latest finished first. */
  async completedImports(userID: number, filter: UserImportsFilter): Promise<ImportDocument[]> {
    return (await this.imports.listByUser(userID, 'completed', filter, USER_IMPORTS_LIMIT)).map(toImportDocument);
  }

  /** The user's 500 latest failed imports, latest started first. */
  async failedImports(userID: number, filter: UserImportsFilter): Promise<FailedImportDocument[]> {
    return (await this.imports.listByUser(userID, 'failed', filter, USER_IMPORTS_LIMIT)).map(toFailedImportDocument);
  }

  /** Everyone's 500 latest completed imports, latest finished first, with their users. */
  async recentImports(filter: UserImportsFilter): Promise<{ imports: ImportDocument[]; users: UserDocument[] }> {
    const rows = await this.imports.list('completed', filter, RECENT_IMPORTS_LIMIT);
    return { imports: rows.map(toImportDocument), users: await this.related.users(rows.map((r) => r.userID)) };
  }

  /** Everyone's 500 latest failed imports, latest started first, with their users. */
  async recentFailedImports(filter: UserImportsFilter): Promise<{ failedImports: FailedImportDocument[]; users: UserDocument[] }> {
    const rows = await this.imports.list('failed', filter, RECENT_IMPORTS_LIMIT);
    return { failedImports: rows.map(toFailedImportDocument), users: await this.related.users(rows.map((r) => r.userID)) };
  }
}
