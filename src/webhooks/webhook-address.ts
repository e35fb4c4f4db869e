import { lookup } from 'node:dns/promises';
import net from 'node:net';

/** A webhook URL that must not be posted to: what it resolves to is not public, or it is not http(s). */
export class RefusedWebhookTarget extends Error {}

/** Ranges a webhook may not reach unless WEBHOOKS_ALLOW_PRIVATE: private, loopback, link-local, and the other non-public ones. */
const BLOCKED = new net.BlockList();
for (const [net4, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  BLOCKED.addSubnet(net4, prefix, 'ipv4');
for (const [net6, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const)
  BLOCKED.addSubnet(net6, prefix, 'ipv6');

/** The IPv4 address an IPv4-mapped or IPv4-compatible/NAT64 IPv6 address carries, if any. */
function embeddedIPv4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return undefined;
  const [hi, lo] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** True for an address a webhook may reach without WEBHOOKS_ALLOW_PRIVATE. */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return !BLOCKED.check(address, 'ipv4');
  if (family !== 6) return false;
  const v4 = embeddedIPv4(address);
  if (v4) return isPublicAddress(v4);
  return !BLOCKED.check(address, 'ipv6');
}

export interface ResolvedTarget {
  address: string;
  family: 4 | 6;
}

/**
 * Resolves the URL's host and checks every address it has (one private address is enough to
 * refuse: a resolver could hand out either). The caller connects to the address returned, so
 * a second lookup cannot lead the request elsewhere.
 */
export async function resolveWebhookTarget(url: URL, allowed: (address: string) => boolean): Promise<ResolvedTarget> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RefusedWebhookTarget(`${url.protocol} URLs are not delivered to: only http and https.`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (net.isIP(host)) addresses = [{ address: host, family: net.isIP(host) }];
  else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch (err) {
      throw new Error(`${host} could not be resolved: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { cause: err });
    }
  }
  if (!addresses.length) throw new Error(`${host} has no address.`);
  const refused = addresses.find((a) => !allowed(a.address));
  if (refused)
    throw new RefusedWebhookTarget(
      `${host} resolves to ${refused.address}, a private, loopback or link-local address: not delivered to (WEBHOOKS_ALLOW_PRIVATE is off).`,
    );
  const [first] = addresses;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
