import { ApiProperty } from '@nestjs/swagger';
import type { ErrorShape } from '../../http/response-shapes.js';
import { ImportDocument } from '../../presenters/import.presenter.js';

/** What Fervidex reads back from a score: Tachi's import answer. Errors are `{success: false, error}` (`description` for 403). */
export class FervidexImportResponse {
  @ApiProperty({ enum: [true] }) success!: true;
  @ApiProperty({ example: 'Import successful.' }) description!: string;
  @ApiProperty({ type: ImportDocument, description: "A score that could not be imported is in the document's errors, with HTTP 200." })
  body!: ImportDocument;
}

/** The profile and class routes' answer: a message, and an empty body. */
export class FervidexMessageResponse {
  @ApiProperty({ enum: [true] }) success!: true;
  @ApiProperty() description!: string;
  @ApiProperty({ type: 'object', properties: {} }) body!: Record<string, never>;
}

/** Fervidex's clients read `error`; Tachi answered its permission and ban checks (403) with `description`. */
export const fervidexErrorShape: ErrorShape = {
  pathPrefix: '/ir/fervidex/',
  render: (status, message) => ({ status, body: status === 403 ? { success: false, description: message } : { success: false, error: message } }),
};
