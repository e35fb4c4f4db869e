import { lookup } from 'node:dns/promises';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/** A webhook URL that must not be posted to: what it resolves to is not public, or it is not http(s). */
export class RefusedWebhookTarget extends Error {}

/** The IPv4 address in the last 32 bits of an IPv6 address. */
function lastIPv4(ip: ipaddr.IPv6): ipaddr.IPv4 {
  const [hi, lo] = [ip.parts[6], ip.parts[7]];
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}

/**
 * The IPv4 address that an IPv6 address of a translation form stands for (a packet sent to it
 * ends up there), or undefined for any other IPv6 address:
 * - IPv4-mapped, ::ffff:0:0/96 (the socket talks IPv4 to the embedded address);
 * - IPv4-translated, ::ffff:0:0:0/96 (SIIT, RFC 6145);
 * - NAT64's well-known prefix, 64:ff9b::/96 (RFC 6052: DNS64 resolvers on IPv6-only networks
 *   hand these out for IPv4-only hosts, so a public one must keep working);
 * - IPv4-compatible, ::/96 (deprecated; Linux's sit0 still tunnels it to the embedded address).
 *   ipaddr.js calls these 'unicast' (all but :: and ::1), hence the explicit check.
 */
function translatedIPv4(ip: ipaddr.IPv6, range: string): ipaddr.IPv4 | undefined {
  const p = ip.parts;
  switch (range) {
    case 'ipv4Mapped':
      return ip.toIPv4Address();
    case 'rfc6145':
      return lastIPv4(ip);
    case 'rfc6052':
      // 64:ff9b::/96 only; 64:ff9b:1::/48 (RFC 8215, local use) puts the IPv4 where its operator chooses.
      return p[2] === 0 ? lastIPv4(ip) : undefined;
    case 'unicast':
      return p[0] === 0 && p[1] === 0 && p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0 ? lastIPv4(ip) : undefined;
    default:
      return undefined;
  }
}

/**
 * True for an address a webhook may reach without WEBHOOKS_ALLOW_PRIVATE: one ipaddr.js calls
 * 'unicast' (not private, loopback, link-local, carrier-grade NAT, multicast, reserved,
 * documentation, benchmarking, unique-local...). An IPv6 form that stands for an IPv4 address
 * (translatedIPv4) is judged by that IPv4 address. 6to4 (2002::/16) and Teredo (2001::/32) are
 * refused whatever IPv4 addresses they carry: both are deprecated tunnels that no webhook receiver
 * needs, and where a packet to them is decapsulated (a relay, or this host's own 6to4 interface)
 * is not this process's to know. Only the standard textual forms are addresses (net.isIP):
 * ipaddr.js alone would also read "127.1" or "0x7f000001".
 */
export function isPublicAddress(address: string): boolean {
  if (!net.isIP(address)) return false;
  const ip = ipaddr.parse(address);
  if (ip instanceof ipaddr.IPv4) return ip.range() === 'unicast';
  const range = ip.range();
  const v4 = translatedIPv4(ip, range);
  if (v4) return v4.range() === 'unicast';
  return range === 'unicast';
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
