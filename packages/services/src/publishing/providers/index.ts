import type { Network } from '@chorus/validators';
import type { Provider } from '../provider';
import { bluesky } from './bluesky';
import { linkedin } from './linkedin';
import { facebook } from './facebook';
import { instagram } from './instagram';
import { mastodonProvider } from './mastodon';
import { threads } from './threads';
import { xProvider } from './x';

export * from './mastodon/oauth';

/** Every network's provider module, by network: the engine looks providers up here only. */
export const PROVIDERS: Readonly<Record<Network, Provider>> = {
  bluesky,
  linkedin,
  mastodon: mastodonProvider,
  x: xProvider,
  facebook,
  instagram,
  threads,
};
