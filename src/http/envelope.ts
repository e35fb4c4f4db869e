import { SetMetadata } from '@nestjs/common';

export type EnvelopeMode = 'plain' | 'tachi';

export const DESCRIPTION = 'envelope:description';

/** The configured API profile (presenters/profile.ts): which documents and envelope the API serves. */
export const API_PROFILE = Symbol('API_PROFILE');

/** The human-readable `description` the Tachi envelope carries for a route's success. */
export const Description = (text: string) => SetMetadata(DESCRIPTION, text);

export interface PlainError {
  statusCode: number;
  error: string;
  message: string;
}

/** Tachi's extra fields on a rate-limited answer. */
export const TACHI_RATE_LIMITED = { status: 429, message: "You're being rate limited." } as const;

export function errorBody(mode: EnvelopeMode, statusCode: number, error: string, message: string): object {
  if (mode !== 'tachi') return { statusCode, error, message } satisfies PlainError;
  return statusCode === 429 ? { success: false, description: message, ...TACHI_RATE_LIMITED } : { success: false, description: message };
}
