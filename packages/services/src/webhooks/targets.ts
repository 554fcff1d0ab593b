import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { AppError } from '../shared/errors';

/** Addresses a webhook may not reach unless the deployment allows private targets. */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  // Documentation (TEST-NET-1 to 3) and the retired 6to4 relay: no receiver lives there.
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  // IPv4-compatible (deprecated; :: and ::1 among them), NAT64 and 6to4 addresses carry an
  // IPv4 address that a host may route to; refused whole, whatever IPv4 they embed.
  ['::', 96],
  ['::1', 128],
  ['64:ff9b::', 96],
  // Local-use NAT64 (RFC 8215), IPv4-translated (RFC 2765), Teredo and the rest of the IETF's
  // protocol block (RFC 2928), documentation (RFC 3849, 9637) and discard-only (RFC 6666):
  // each embeds an IPv4 address where a host may route to it, or is no receiver's address.
  ['64:ff9b:1::', 48],
  ['::ffff:0:0:0', 96],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['3fff::', 20],
  ['100::', 64],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  // Site-local (deprecated, still routed inside some networks).
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

/** Ports a public target may use: https's own, and its usual alternative. */
const PUBLIC_PORTS = new Set(['', '443', '8443']);
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** The 16 bytes of an IPv6 address (any textual form, dotted tail included). */
function bytesOf(address: string): Buffer | null {
  if (isIP(address) !== 6) return null;
  let text = address.toLowerCase().split('%')[0] ?? '';
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    const hex = (n: number) => n.toString(16);
    text = `${text.slice(0, dotted.index)}${hex((a << 8) | b)}:${hex((c << 8) | d)}`;
  }
  const [head = '', tail] = text.split('::');
  const groups = (part: string) => (part ? part.split(':') : []);
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  const out = Buffer.alloc(16);
  all.forEach((group, i) => out.writeUInt16BE(parseInt(group, 16), i * 2));
  return out;
}

const dotted = (b: Buffer, at: number) => `${b[at]}.${b[at + 1]}.${b[at + 2]}.${b[at + 3]}`;

/**
 * An IPv4-mapped address is the IPv4 address it maps, however it is spelled (`::ffff:10.0.0.1`,
 * or `::ffff:a00:1` as URLs write it): checked as that address, loopback included.
 */
function normalise(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const b = bytesOf(address);
  if (!b) return { address, family: 'ipv4' };
  const mapped = b.subarray(0, 10).every((x) => x === 0) && b.readUInt16BE(10) === 0xffff;
  return mapped ? { address: dotted(b, 12), family: 'ipv4' } : { address, family: 'ipv6' };
}

/**
 * The IPv4 address an IPv6 one carries: IPv4-compatible `::a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`,
 * 6to4 `2002:aabb:ccdd::` (the address in bits 16–47). Null for the others (an IPv4-mapped
 * address is read as IPv4 before: `normalise`).
 */
export function embeddedIpv4(address: string): string | null {
  const b = bytesOf(address);
  if (!b) return null;
  const zeros = (from: number, to: number) => b.subarray(from, to).every((x) => x === 0);
  if (zeros(0, 12)) return dotted(b, 12);
  if (b.readUInt32BE(0) === 0x0064ff9b && zeros(4, 12)) return dotted(b, 12);
  if (b.readUInt16BE(0) === 0x2002) return dotted(b, 2);
  return null;
}

export const isPrivateAddress = (address: string) => {
  const { address: a, family } = normalise(address);
  if (PRIVATE.check(a, family)) return true;
  const inner = family === 'ipv6' ? embeddedIpv4(a) : null;
  return inner !== null && PRIVATE.check(inner, 'ipv4');
};
const isLoopback = (address: string) => {
  const { address: a, family } = normalise(address);
  return LOOPBACK.check(a, family);
};

export class TargetRefused extends Error {}
/** A host that does not resolve (now): DNS may answer next time, where an address refused will not. */
export class TargetUnresolved extends TargetRefused {}

/** The host of a URL as `lookup` and `isIP` take it (IPv6 without brackets). */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Checks a target (docs/webhooks.md): https on public addresses, on port 443 or 8443; with
 * private targets allowed, any address and port, and http to loopback. The addresses are those `resolve` gives now; at delivery
 * time `guardedLookup` checks the addresses the connection really uses (DNS can change).
 */
export async function checkTarget(
  raw: string,
  allowPrivate: boolean,
  resolve: (host: string) => Promise<string[]> = resolveAll,
): Promise<void> {
  const url = new URL(raw);
  if (url.username || url.password) throw new TargetRefused('The URL must not carry credentials.');
  // http is for loopback only, and only where private targets are allowed: refused before
  // any look-up otherwise, so the message says what is wrong rather than what DNS answered.
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowPrivate)) {
    throw new TargetRefused('The URL must be https.');
  }
  if (!allowPrivate && !PUBLIC_PORTS.has(url.port)) {
    throw new TargetRefused('The URL must use port 443 or 8443.');
  }
  const host = hostOf(url);
  const addresses = isIP(host)
    ? [host]
    : await resolve(host).catch(() => {
        throw new TargetUnresolved(`${host} does not resolve.`);
      });
  if (url.protocol === 'http:' && !(allowPrivate && addresses.every(isLoopback))) {
    throw new TargetRefused('The URL must be https.');
  }
  if (!allowPrivate && addresses.some(isPrivateAddress)) {
    throw new TargetRefused('The URL resolves to a private, loopback or link-local address.');
  }
}

const resolveAll = (host: string) =>
  new Promise<string[]>((resolve, reject) =>
    dnsLookup(host, { all: true }, (error, found) =>
      error ? reject(error) : resolve(found.map((entry) => entry.address)),
    ),
  );

/** For create and update: a refused target is 400 naming `url`. */
export async function assertTargetAllowed(url: string, allowPrivate: boolean) {
  try {
    await checkTarget(url, allowPrivate);
  } catch (error) {
    if (!(error instanceof TargetRefused)) throw error;
    throw new AppError('validation_error', 'The request is not valid.', {
      issues: [{ path: 'url', message: error.message }],
    });
  }
}

/**
 * A `lookup` for the HTTP client that refuses private addresses as the connection resolves
 * them: no window between a check and the connect for DNS to change in.
 */
export const guardedLookup =
  (allowPrivate: boolean): LookupFunction =>
  (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, found) => {
      if (error) return callback(error, '', 0);
      const refused = !allowPrivate && found.some((entry) => isPrivateAddress(entry.address));
      if (refused) {
        return callback(new TargetRefused('resolves to a private address'), '', 0);
      }
      if (options.all) return (callback as (e: null, a: typeof found) => void)(null, found);
      const first = found[0];
      if (!first) return callback(new Error('no address'), '', 0);
      callback(null, first.address, first.family);
    });
  };
