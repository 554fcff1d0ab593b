import type { Network } from '@chorus/validators';
import { publishRequest as harnessRequest } from './harness';
import {
  PROVIDERS,
  type Provider,
  type ProviderCredentials,
  type PublishPart,
  type PublishProgress,
  type PublishRequest,
} from '../../src/publishing';

/** A network's registered provider (the test fails when it is not registered). */
export function provider(network: Network): Provider {
  const found = PROVIDERS[network];
  if (!found) throw new Error(`no provider registered for ${network}`);
  return found;
}

/** Media bytes as the networks sniff them: a JPEG's, a PNG's and an MP4's first bytes. */
export const jpeg = (size = 2048) =>
  Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(size - 4, 7)]);
export const png = (size = 2048) =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(size - 4, 7)]);
export const mp4 = (size = 4096) =>
  Buffer.concat([
    Buffer.from([0, 0, 0, 0x18]),
    Buffer.from('ftypmp42'),
    Buffer.alloc(size - 12, 1),
  ]);

/**
 * The harness's publish request, with a channel handle by default, a starting `progress` (an
 * earlier attempt's, for a retry) and `progress()`: the last saved state.
 */
export function publishRequest(options: {
  channel: { externalId: string; handle?: string; credentials: ProviderCredentials };
  parts: PublishPart[];
  firstComment?: string;
  progress?: PublishProgress;
}) {
  const made = harnessRequest({ ...options, channel: { handle: '@test', ...options.channel } });
  const request: PublishRequest = { ...made.request, progress: options.progress ?? {} };
  return { request, saved: made.saved, progress: () => made.saved.at(-1) ?? request.progress };
}

export { failure as rejection } from './harness';

/** A loopback address where nothing listens: a connection there is refused before sending. */
export async function refusingUrl(): Promise<string> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/v21.0`;
}
