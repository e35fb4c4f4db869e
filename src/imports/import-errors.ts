import { HttpException, HttpStatus } from '@nestjs/common';

/** A problem with the whole import (not JSON, bad meta, unknown game…): nothing is imported. */
export class ImportRejectedError extends HttpException {
  constructor(message: string, status: number = HttpStatus.BAD_REQUEST) {
    super(message, status);
  }
}

/** Per-score error types in the ImportDocument's `errors`. */
export const SCORE_ERROR = {
  /** The score element is invalid (bad lamp, out of range, missing difficulty, unsupported match type…). */
  invalid: 'InvalidDatapoint',
  /** No song or chart matched: the score is kept as an orphan. */
  notFound: 'SongOrChartNotFound',
} as const;
