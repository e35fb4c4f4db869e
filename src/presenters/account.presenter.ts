import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { InviteRow } from '../database/schema.js';
import { definePresenter } from './profile.js';
import { UserDocument } from './user.presenter.js';

/** A user's site-wide preferences (Tachi's UserSettingsDocument `preferences`). */
export class UserPreferencesDocument {
  @ApiProperty({ description: 'Hides the user from GET /users (lists, online, search); their lastSeen stops moving.' }) invisible!: boolean;
  @ApiProperty({ description: "A client preference: show developer information (ids, raw documents). The server doesn't act on it." })
  developerMode!: boolean;
  @ApiProperty({ description: "A client preference: show advanced options. The server doesn't act on it." }) advancedMode!: boolean;
  @ApiProperty({ description: "A client preference: show contentious content. The server doesn't act on it." }) contentiousContent!: boolean;
  @ApiProperty({ description: "A client preference: offer to delete scores. The server doesn't enforce it." }) deletableScores!: boolean;
}

/** A user's site-wide settings. */
export class UserSettingsDocument {
  @ApiProperty({ type: 'integer' }) userID!: number;
  @ApiProperty({ type: UserPreferencesDocument }) preferences!: UserPreferencesDocument;
  @ApiProperty({ type: 'integer', isArray: true, description: 'The users this user follows (POST /users/:userID/following/add), oldest first.' })
  following!: number[];
}

export const toUserSettingsDocument = definePresenter('userSettings', {
  spec: ({ userID, preferences, following }: { userID: number; preferences: UserPreferencesDocument; following: number[] }): UserSettingsDocument => ({
    userID,
    preferences: { ...preferences },
    following: [...following],
  }),
  tachi: (_source, spec): UserSettingsDocument => ({ userID: spec.userID, preferences: { ...spec.preferences }, following: [...spec.following] }),
  schemas: { spec: UserSettingsDocument, tachi: UserSettingsDocument },
});

/** An invite code a user created (Tachi's InviteCodeDocument). */
export class InviteDocument {
  @ApiProperty({ description: '40 hexadecimal characters; register with it as inviteCode.' }) code!: string;
  @ApiProperty({ type: 'integer', description: 'The user who created it.' }) createdBy!: number;
  @ApiProperty({ type: 'integer', description: 'Unix ms.' }) createdAt!: number;
  @ApiProperty({ description: 'Whether someone registered with it.' }) consumed!: boolean;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Who registered with it.' }) consumedBy!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'When (Unix ms).' }) consumedAt!: number | null;
}

export const toInviteDocument = definePresenter('invite', {
  spec: (row: InviteRow & { createdBy: number }): InviteDocument => ({
    code: row.code,
    createdBy: row.createdBy,
    createdAt: row.createdAt,
    consumed: row.consumedAt !== null,
    consumedBy: row.consumedBy,
    consumedAt: row.consumedAt,
  }),
  tachi: (_row, spec): InviteDocument => ({ ...spec }),
  schemas: { spec: InviteDocument, tachi: InviteDocument },
});

/** The invites a user created, and the users who registered with them. */
export class UserInvitesResponse {
  @ApiProperty({ type: [InviteDocument], description: 'Oldest first.' }) invites!: InviteDocument[];
  @ApiProperty({ type: [UserDocument], description: 'The users who registered with one of them.' }) consumers!: UserDocument[];
}

/** How many invites a user created, and how many they may. */
export class InviteLimitResponse {
  @ApiProperty({ type: 'integer', description: 'Invites the user created (used or not).' }) invites!: number;
  @ApiProperty({ type: 'integer', description: 'Invites the user may create in all; administrators may create more.' }) limit!: number;
}

/** When the user last changed their username, and when they may again. */
export class UsernameChangeDocument {
  @ApiProperty({ type: 'integer', nullable: true, description: 'Unix ms; null: never.' }) lastChange!: number | null;
  @ApiProperty({ description: 'Whether the user may change their username now.' }) canChange!: boolean;
  @ApiProperty({ type: 'integer', nullable: true, description: 'When the user may change it again (Unix ms); null when they may now.' })
  nextAvailableChange!: number | null;
}

/** Tachi's answer: `{canChange: true}`, or `{canChange: false, nextAvailableChange}`. */
export class TachiUsernameChangeDocument {
  @ApiProperty() canChange!: boolean;
  @ApiPropertyOptional({ type: 'integer', description: 'Unix ms; only when canChange is false.' }) nextAvailableChange?: number;
}

export const toUsernameChangeDocument = definePresenter('usernameChange', {
  spec: ({ lastChange, nextAvailable, now }: { lastChange: number | null; nextAvailable: number | null; now: number }): UsernameChangeDocument => {
    const canChange = nextAvailable === null || nextAvailable <= now;
    return { lastChange, canChange, nextAvailableChange: canChange ? null : nextAvailable };
  },
  tachi: (_source, spec): TachiUsernameChangeDocument =>
    spec.canChange ? { canChange: true } : { canChange: false, nextAvailableChange: spec.nextAvailableChange ?? undefined },
  schemas: { spec: UsernameChangeDocument, tachi: TachiUsernameChangeDocument },
});

/** The user's email address. */
export class EmailDocument {
  @ApiProperty() email!: string;
}

/** Tachi answers with the address itself (a JSON string), not an object. */
export const toEmailDocument = definePresenter('email', {
  spec: (email: string): EmailDocument => ({ email }),
  tachi: (email: string) => email as unknown as object,
});

/** Whether the user verified their email address. */
export class EmailVerifiedDocument {
  @ApiProperty() verified!: boolean;
}

/** Tachi answers with the boolean itself. */
export const toEmailVerifiedDocument = definePresenter('emailVerified', {
  spec: (verified: boolean): EmailVerifiedDocument => ({ verified }),
  tachi: (verified: boolean) => verified as unknown as object,
});
