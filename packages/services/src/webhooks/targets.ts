import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { AppError } from '../errors';

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
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** `::ffff:10.0.0.1` is 10.0.0.1. */
function normalise(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return { address: mapped[1], family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

export const isPrivateAddress = (address: string) => {
  const { address: a, family } = normalise(address);
  return PRIVATE.check(a, family);
};
const isLoopback = (address: string) => {
  const { address: a, family } = normalise(address);
  return LOOPBACK.check(a, family);
};

export class TargetRefused extends Error {}

/** The host of a URL as `lookup` and `isIP` take it (IPv6 without brackets). */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Checks a target (decisions §14): https on public addresses; with private targets allowed,
 * any address, and http to loopback. The addresses are those `resolve` gives now; at delivery
 * time `guardedLookup` checks the addresses the connection really uses (DNS can change).
 */
export async function checkTarget(
  raw: string,
  allowPrivate: boolean,
  resolve: (host: string) => Promise<string[]> = resolveAll,
): Promise<void> {
  const url = new URL(raw);
  if (url.username || url.password) throw new TargetRefused('The URL must not carry credentials.');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TargetRefused('The URL must be https.');
  }
  const host = hostOf(url);
  const addresses = isIP(host)
    ? [host]
    : await resolve(host).catch(() => {
        throw new TargetRefused(`${host} does not resolve.`);
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
