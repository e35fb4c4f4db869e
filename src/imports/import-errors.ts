import { HttpException, HttpStatus } from '@nestjs/common';

/** A problem with the whole import (not JSON, bad meta, unknown game…): nothing is imported. */
export class ImportRejectedError extends HttpException {
  constructor(message: string, status: number = HttpStatus.BAD_REQUEST) {
    super(message, status);
  }
}

/** Per-score error types in the ImportDocument's `errors`: the import's write records them (scoring/import-write.ts). */
export { SCORE_ERROR } from '../scoring/import-write.js';
