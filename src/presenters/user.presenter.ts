import { ApiProperty } from '@nestjs/swagger';
import type { SocialMedia, UserRow } from '../database/schema.js';
import { definePresenter } from './profile.js';

export class SocialMediaDocument implements SocialMedia {
  @ApiProperty({ type: String, nullable: true }) discord!: string | null;
  @ApiProperty({ type: String, nullable: true }) twitter!: string | null;
  @ApiProperty({ type: String, nullable: true }) github!: string | null;
  @ApiProperty({ type: String, nullable: true }) steam!: string | null;
  @ApiProperty({ type: String, nullable: true }) youtube!: string | null;
  @ApiProperty({ type: String, nullable: true }) twitch!: string | null;
}

/** Spec UserDocument. Email and password never leave user_credentials. */
export class UserDocument {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty() username!: string;
  @ApiProperty() usernameLowercase!: string;
  @ApiProperty({ type: SocialMediaDocument }) socialMedia!: SocialMedia;
  @ApiProperty({ type: 'integer', description: 'Unix ms.' }) joinDate!: number;
  @ApiProperty({ type: 'integer', description: 'Unix ms.' }) lastSeen!: number;
  @ApiProperty({ description: 'Markdown.' }) about!: string;
  @ApiProperty({ type: String, nullable: true }) status!: string | null;
  @ApiProperty({ type: String, nullable: true }) customPfpLocation!: string | null;
  @ApiProperty({ type: String, nullable: true }) customBannerLocation!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true }) clan!: unknown;
  @ApiProperty({ type: [String] }) badges!: string[];
  @ApiProperty({ type: 'integer', description: 'Administrators have 3 or more.' }) authLevel!: number;
}

/** Tachi's (HEAD) UserDocument: without `clan`, which Tachi removed. */
export class TachiUserDocument {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty() username!: string;
  @ApiProperty() usernameLowercase!: string;
  @ApiProperty({ type: SocialMediaDocument }) socialMedia!: SocialMedia;
  @ApiProperty({ type: 'integer', description: 'Unix ms.' }) joinDate!: number;
  @ApiProperty({ type: 'integer', description: 'Unix ms.' }) lastSeen!: number;
  @ApiProperty({ description: 'Markdown.' }) about!: string;
  @ApiProperty({ type: String, nullable: true }) status!: string | null;
  @ApiProperty({ type: String, nullable: true }) customPfpLocation!: string | null;
  @ApiProperty({ type: String, nullable: true }) customBannerLocation!: string | null;
  @ApiProperty({ type: [String] }) badges!: string[];
  @ApiProperty({ type: 'integer', description: 'Administrators have 3 or more.' }) authLevel!: number;
  @ApiProperty({ description: 'Whether an administrator marked the user a supporter (POST /admin/supporter/:userID).' }) isSupporter!: boolean;
}

export const toUserDocument = definePresenter('user', {
  spec: (user: UserRow): UserDocument => ({
    id: user.id,
    username: user.username,
    usernameLowercase: user.usernameLowercase,
    socialMedia: user.socialMedia,
    joinDate: user.joinDate,
    lastSeen: user.lastSeen,
    about: user.about,
    status: user.status,
    customPfpLocation: user.customPfpLocation,
    customBannerLocation: user.customBannerLocation,
    clan: user.clan ?? null,
    badges: user.badges,
    authLevel: user.authLevel,
  }),
  tachi: (user, { clan: _clan, ...rest }): TachiUserDocument => ({ ...rest, isSupporter: user.isSupporter }),
  schemas: { spec: UserDocument, tachi: TachiUserDocument },
});
