import type { UserRow } from '../database/schema.js';

/** Spec UserDocument. Email and password never leave user_credentials. */
export function toUserDocument(user: UserRow) {
  return {
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
  };
}

export type UserDocument = ReturnType<typeof toUserDocument>;
