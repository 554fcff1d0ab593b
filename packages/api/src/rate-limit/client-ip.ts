import { BlockList, isIP } from 'node:net';

/** Who may say who the client is (CHORUS_TRUSTED_PROXIES): a hop count, or proxy addresses. */
export type TrustedProxies = { hops: number } | { list: BlockList };

/**
 * Parses CHORUS_TRUSTED_PROXIES: unset or `0` trusts no proxy; a number N trusts the N nearest
 * hops (e.g. `1` behind one load balancer); otherwise a comma-separated list of addresses and
 * CIDRs (`10.0.0.0/8, 2001:db8::/32`). A bad value throws, naming the variable.
 */
export function trustedProxiesFromEnv(
  env: Record<string, string | undefined> = process.env,
): TrustedProxies {
  const raw = env.CHORUS_TRUSTED_PROXIES?.trim() ?? '';
  if (raw === '') return { hops: 0 };
  if (/^\d+$/.test(raw)) return { hops: Number(raw) };
  const list = new BlockList();
  for (const entry of raw.split(',').map((part) => part.trim())) {
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address);
    const bits = prefix === undefined ? (family === 6 ? 128 : 32) : Number(prefix);
    if (!family || !Number.isInteger(bits) || bits < 0 || bits > (family === 6 ? 128 : 32)) {
      throw new Error(
        `CHORUS_TRUSTED_PROXIES: "${entry}" is neither a hop count nor an IP address or CIDR.`,
      );
    }
    list.addSubnet(address, bits, family === 6 ? 'ipv6' : 'ipv4');
  }
  return { list };
}

const normal = (address: string) => address.replace(/^::ffff:(?=\d+\.)/, '').toLowerCase();
const contains = (list: BlockList, address: string) =>
  list.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');

/**
 * The caller's address: the socket's peer (`remoteAddress`), unless that peer is a trusted
 * proxy, in which case X-Forwarded-For is read from the right, one trusted hop at a time.
 * Addresses a client wrote itself (the left of the header) are never believed. Without a
 * socket address, the last X-Forwarded-For entry stands for the peer: the app's HTTP server
 * appends the socket's address there before any door or page sees the request.
 */
export function clientIp(
  req: Pick<Request, 'headers'>,
  options: { remoteAddress?: string; trusted?: TrustedProxies } = {},
): string {
  const forwarded = (req.headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((part) => normal(part.trim()))
    .filter((part) => part !== '');
  const chain = options.remoteAddress ? [...forwarded, normal(options.remoteAddress)] : forwarded;
  const trusted = options.trusted ?? defaultTrusted();
  let index = chain.length - 1;
  if ('hops' in trusted) {
    index = Math.max(0, index - trusted.hops);
  } else {
    while (index > 0 && isIP(chain[index] ?? '') && contains(trusted.list, chain[index] ?? '')) {
      index -= 1;
    }
  }
  const candidate = chain[index];
  // Only a real address names a bucket: arbitrary text must not mint keys at will.
  return candidate && isIP(candidate) ? candidate : 'unknown';
}

/**
 * The caller's address from the socket alone, for an answer given before the request's headers
 * could be read (Node's parser refused them): the peer, unless the peer is a trusted proxy,
 * whose client is named in a header that was never read (undefined: unknown).
 */
export function peerClient(
  remoteAddress: string | undefined,
  trusted: TrustedProxies = defaultTrusted(),
): string | undefined {
  const peer = normal(remoteAddress ?? '');
  if (!isIP(peer)) return undefined;
  const proxy = 'hops' in trusted ? trusted.hops > 0 : contains(trusted.list, peer);
  return proxy ? undefined : peer;
}

let fromEnv: TrustedProxies | undefined;
const defaultTrusted = () => (fromEnv ??= trustedProxiesFromEnv());
