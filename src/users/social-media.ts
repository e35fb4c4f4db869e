import { BadRequestException } from '@nestjs/common';
import type { SocialMedia } from '../database/schema.js';

export const SOCIAL_NETWORKS = ['discord', 'twitter', 'github', 'steam', 'youtube', 'twitch'] as const satisfies readonly (keyof SocialMedia)[];
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

/** Each site's hosts and the profile paths whose next segment is the handle. */
const PROFILE_URLS: Record<SocialNetwork, { hosts: string[]; paths: string[] }> = {
  discord: { hosts: [], paths: [] },
  twitter: { hosts: ['twitter.com', 'x.com'], paths: ['/'] },
  github: { hosts: ['github.com'], paths: ['/'] },
  steam: { hosts: ['steamcommunity.com'], paths: ['/id/', '/profiles/'] },
  youtube: { hosts: ['youtube.com'], paths: ['/user/', '/channel/', '/@', '/c/'] },
  twitch: { hosts: ['twitch.tv'], paths: ['/'] },
};

const LOOKS_LIKE_URL = /^(https?:\/\/|www\.)|^[a-z0-9-]+(\.[a-z0-9-]+)+\//i;

function expectedForm(network: SocialNetwork): string {
  const { hosts, paths } = PROFILE_URLS[network];
  if (hosts.length === 0) return `${network} must be a handle, not a URL.`;
  return `${network} must be a handle or a profile URL like ${hosts.flatMap((h) => paths.map((p) => `https://${h}${p}<handle>`)).join(' or ')}.`;
}

const HANDLE_LENGTH = { min: 3, max: 140 };

/** The stored handle is what must be 3 to 140 characters: the DTO can only check the value as sent, before a URL is reduced or spaces trimmed. */
function handleOfValidLength(network: SocialNetwork, handle: string): string {
  if (handle.length < HANDLE_LENGTH.min || handle.length > HANDLE_LENGTH.max) {
    throw new BadRequestException(`${network}: the handle '${handle}' must be ${HANDLE_LENGTH.min} to ${HANDLE_LENGTH.max} characters long.`);
  }
  return handle;
}

/**
 * Socials are stored as handles. A profile URL of the right site is reduced to its handle;
 * any other URL is refused. The host is compared whole, so notgithub.com is not github.com.
 */
export function normaliseSocial(network: SocialNetwork, value: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw new BadRequestException(`${network} must not be blank; send null to unset it.`);
  if (!LOOKS_LIKE_URL.test(trimmed)) return handleOfValidLength(network, trimmed);
  let url: URL;
  try {
    url = new URL(/^https?:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`);
  } catch {
    throw new BadRequestException(expectedForm(network));
  }
  const { hosts, paths } = PROFILE_URLS[network];
  const host = url.hostname.toLowerCase().replace(/^(www|m|mobile)\./, '');
  const path = url.pathname.toLowerCase();
  const prefix = hosts.includes(host) ? paths.find((p) => path.startsWith(p)) : undefined;
  if (prefix === undefined) throw new BadRequestException(expectedForm(network));
  const segment = url.pathname.slice(prefix.length).split('/')[0];
  let handle: string;
  try {
    handle = decodeURIComponent(segment);
  } catch {
    throw new BadRequestException(`${network}: the URL is malformed (bad percent-encoding).`);
  }
  if (!handle) throw new BadRequestException(`${network}: the URL does not name an account.`);
  return handleOfValidLength(network, handle);
}
