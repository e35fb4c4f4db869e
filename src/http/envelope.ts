import { SetMetadata } from '@nestjs/common';

export type EnvelopeMode = 'plain' | 'tachi';

export const DESCRIPTION = 'envelope:description';

/** The human-readable `description` the Tachi envelope carries for a route's success. */
export const Description = (text: string) => SetMetadata(DESCRIPTION, text);

export interface PlainError {
  statusCode: number;
  error: string;
  message: string;
}

export function errorBody(mode: EnvelopeMode, statusCode: number, error: string, message: string): object {
  return mode === 'tachi' ? { success: false, description: message } : ({ statusCode, error, message } satisfies PlainError);
}
