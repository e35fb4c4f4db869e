import { describe, expect, it } from '@jest/globals';
import ipaddr from 'ipaddr.js';
import { isPublicAddress } from '../../../src/webhooks/webhook-address.js';

/** The eight 16-bit groups of an IPv6 address, to check the hand-computed fixtures below. */
const groups = (address: string) => ipaddr.IPv6.parse(address).parts;
const dotted = (hi: number, lo: number) => [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.');

/*
 * 6to4 (RFC 3056): 2002:AABB:CCDD::/48 carries the IPv4 address AA.BB.CC.DD in groups 1 and 2.
 *   10.0.0.1     = 0a.00.00.01 -> 2002:0a00:0001::1
 *   127.0.0.1    = 7f.00.00.01 -> 2002:7f00:0001::
 *   192.168.1.1  = c0.a8.01.01 -> 2002:c0a8:0101::
 *   8.8.8.8      = 08.08.08.08 -> 2002:0808:0808::
 */
const SIX_TO_FOUR = [
  ['2002:0a00:0001::1', '10.0.0.1'],
  ['2002:7f00:0001::', '127.0.0.1'],
  ['2002:c0a8:0101::', '192.168.1.1'],
  ['2002:0808:0808::', '8.8.8.8'],
] as const;

/*
 * Teredo (RFC 4380): 2001:0000:SSSS:SSSS:FFFF:PPPP:CCCC:CCCC, with the server's IPv4 in groups 2-3
 * as is, and the client's port and IPv4 in groups 5 and 6-7 XOR all-ones.
 *   server 65.54.227.120 = 41.36.e3.78 -> 4136:e378; flags 8000; port 40000 = 0x9c40 -> 0x9c40 ^ 0xffff = 63bf
 *   client 127.0.0.1 = 0x7f000001 -> 0x7f000001 ^ 0xffffffff = 0x80fffffe -> 80ff:fffe
 *     -> 2001:0:4136:e378:8000:63bf:80ff:fffe
 *   client 10.0.0.1  = 0x0a000001 -> 0xf5fffffe -> 2001:0:4136:e378:8000:63bf:f5ff:fffe
 *   client 8.8.8.8   = 0x08080808 -> 0xf7f7f7f7 -> 2001:0:4136:e378:8000:63bf:f7f7:f7f7
 */
const TEREDO = [
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', '127.0.0.1'],
  ['2001:0:4136:e378:8000:63bf:f5ff:fffe', '10.0.0.1'],
  ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', '8.8.8.8'],
] as const;

describe('isPublicAddress', () => {
  it('the fixtures carry the IPv4 addresses their comments say', () => {
    for (const [address, v4] of SIX_TO_FOUR) expect(dotted(groups(address)[1], groups(address)[2])).toBe(v4);
    for (const [address, v4] of TEREDO) {
      const g = groups(address);
      expect(dotted(g[2], g[3])).toBe('65.54.227.120');
      expect(g[5] ^ 0xffff).toBe(40000);
      expect(dotted(g[6] ^ 0xffff, g[7] ^ 0xffff)).toBe(v4);
    }
  });

  it.each([
    // IPv4: private, loopback, link-local, carrier-grade NAT, "this network", multicast, broadcast
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    // IPv4: IETF assignments, benchmarking, documentation (TEST-NET-1/2/3), reserved
    '192.0.0.8',
    '198.18.0.1',
    '192.0.2.1',
    '198.51.100.7',
    '203.0.113.9',
    '240.0.0.1',
    // IPv6: loopback, unspecified, link-local (with a zone too), unique local, site-local, multicast
    '::1',
    '::',
    'fe80::1',
    'fe80::1%eth0',
    'fd00::1',
    'fc12::1',
    'fec0::1',
    'ff02::1',
    // IPv6: documentation, benchmarking, discard-only
    '2001:db8::1',
    '2001:2::1',
    '100::1',
    // IPv4-mapped: ::ffff:7f00:1 is ::ffff:127.0.0.1 (7f00:0001 = 127.0.0.1); ::ffff:a00:1 is ::ffff:10.0.0.1
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:a00:1',
    // IPv4-translated (SIIT): ::ffff:0:a00:1 carries 10.0.0.1
    '::ffff:0:a00:1',
    // NAT64 well-known prefix: 64:ff9b::a00:1 carries 10.0.0.1 (0a00:0001); a9fe:a9fe is 169.254.169.254
    '64:ff9b::a00:1',
    '64:ff9b::10.0.0.1',
    '64:ff9b::a9fe:a9fe',
    // NAT64 local-use prefix (RFC 8215): where the IPv4 sits is the operator's choice, so refused whatever it carries
    '64:ff9b:1::808:808',
    // IPv4-compatible (deprecated): ::a00:1 is ::10.0.0.1, ::7f00:1 is ::127.0.0.1, ::2 carries 0.0.0.2 ("this network")
    '::10.0.0.1',
    '::a00:1',
    '::7f00:1',
    '::2',
    // 6to4 and Teredo: refused whatever they carry, a public 8.8.8.8 too (see isPublicAddress)
    ...SIX_TO_FOUR.map(([address]) => address),
    ...TEREDO.map(([address]) => address),
    // Not an address in its standard form (the URL parser and DNS only give standard forms)
    'not-an-ip',
    '127.1',
    '0x7f000001',
    '',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '172.15.255.255',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:81d::200e',
    // ::ffff:808:808 is ::ffff:8.8.8.8 (0808:0808)
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    '::ffff:0:808:808',
    // A DNS64 answer for an IPv4-only receiver on an IPv6-only network
    '64:ff9b::808:808',
    '64:ff9b::8.8.8.8',
    '::808:808',
  ])('allows %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});
