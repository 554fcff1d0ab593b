import type { Network, NetworkLimits } from '@chorus/validators';

/**
 * The seam between the publishing engine and the networks: one module per network in
 * `providers/`, each implementing `Provider`. The engine owns the database (claims, outcomes,
 * retries, events); a provider owns one network's HTTP API and nothing else. Providers never
 * touch the database, the queue or the clock except through what they are given.
 */

/** Tokens as a network issued them; kept encrypted by the engine, given to the provider decrypted. */
export interface ProviderCredentials {
  accessToken: string;
  refreshToken?: string;
  /** When the access token stops working (ISO 8601), when the network says. */
  expiresAt?: string;
  /** Whatever else the network needs to be reached (Bluesky's DID, an instance's URL). */
  extra?: Record<string, string>;
}

/** Where and how a provider reaches its network. */
export interface ProviderContext {
  /**
   * The network's API base URL: CHORUS_INTEGRATION_<ID>_API_URL, the real address by default,
   * or the connection's own server (a Bluesky PDS, a Mastodon instance).
   */
  apiUrl: string;
  /**
   * `apiUrl` is the connection's own server, an address a user chose: every call to it goes
   * through the webhooks' rule, checked as each connection resolves it (`networkFetch`'s
   * `guarded`). Absent for the network's configured or real API, which the operator trusts.
   */
  guarded?: boolean;
  /** Our app at the network, for refreshing OAuth tokens (absent for networks without OAuth). */
  oauth?: { tokenUrl: string; clientId: string; clientSecret: string };
  /** Aborts the network calls of this attempt (the engine's timeout, a worker stopping). */
  signal?: AbortSignal;
}

/** A place on the network a post goes to, as a provider discovers it at connect time. */
export interface DiscoveredChannel {
  /** The channel's id at the network: a DID, a Page id, `urn:li:organization:…`, a user id. */
  externalId: string;
  name: string;
  /** `@alice.bsky.social`, `@alice@mastodon.social`, the Page's username… */
  handle: string;
  avatarUrl: string | null;
  kind: 'profile' | 'page' | 'organization' | 'account';
  /** Credentials of the channel itself when they differ from the connection's (a Page token). */
  credentials?: ProviderCredentials;
  /** Limits narrower or wider than the network's defaults (a Mastodon instance's own). */
  limits?: Partial<NetworkLimits>;
}

/** One attachment, readable by the provider in the way its network takes media. */
export interface PublishMedia {
  id: string;
  mimeType: string;
  size: number;
  width: number | null;
  height: number | null;
  altText: string | null;
  /** A fresh stream of the bytes from storage, never the whole file in memory. */
  open(): Promise<ReadableStream<Uint8Array>>;
  /** A signed URL of the bytes that expires within an hour (for networks that fetch by URL). */
  signedUrl(): Promise<string>;
}

/** One post of a target: the first is the post itself, the others its thread, in order. */
export interface PublishPart {
  text: string;
  media: PublishMedia[];
}

/**
 * What earlier attempts of this target achieved at the network (thread parts already posted,
 * a container already created), so that a retry continues instead of repeating. Providers put
 * what they need in it; the engine stores it with the target after each step.
 */
export type PublishProgress = Record<string, string | string[]>;

export interface PublishRequest {
  /**
   * The target's id (`tgt_…`): stable across attempts, so idempotency keys and record keys
   * derived from it make a retry land on the same post.
   */
  targetId: string;
  /**
   * How many times what the target sends has changed (0 for its first text): with `targetId`,
   * what idempotency keys and record keys derive from (sendKey), so they stay the same across
   * the attempts of one text and change with the text, and a network never answers a new text
   * with the post it made of the old one.
   */
  revision: number;
  channel: { externalId: string; handle: string; credentials: ProviderCredentials };
  parts: PublishPart[];
  firstComment: string | null;
  progress: PublishProgress;
  /** Stores progress before the next network call; resolves once it is durable. */
  saveProgress(progress: PublishProgress): Promise<void>;
}

/**
 * What a network's idempotency key (or record key) for this target's text derives from: the
 * target's id for its first text (the keys of targets sent before revisions existed stay
 * theirs), the id and the revision after it changed.
 */
export const sendKey = (request: Pick<PublishRequest, 'targetId' | 'revision'>) =>
  request.revision === 0 ? request.targetId : `${request.targetId}.r${request.revision}`;

export interface Published {
  /** The post's id at the network (of the thread's first post). */
  externalId: string;
  /** Where a person sees it. */
  url: string;
}

/**
 * How a failure is handled (the engine's policy, per class):
 * - `rate_limited`: retried after `retryAfterMs` (the network's Retry-After or reset header);
 * - `transient`: retried with backoff (a 5xx, a connection refused before anything was sent);
 * - `token_expired`: the credentials are refreshed once and the call retried;
 * - `revoked`: the connection is marked `needs_reconnect`, the target fails `reconnect_required`;
 * - `rejected`: the network refused the post; the target fails with the network's message;
 * - `unknown_outcome`: the request may have been acted on (a timeout after it was sent):
 *   retried where the provider is `idempotent`, otherwise the target becomes `unconfirmed`;
 * - `address_refused`: the connection's own server is an address the deployment refuses
 *   (`networkFetch`'s `guarded`): nothing was sent; the target fails `service_url_refused`.
 */
export type ErrorClass =
  | 'rate_limited'
  | 'transient'
  | 'token_expired'
  | 'revoked'
  | 'rejected'
  | 'unknown_outcome'
  | 'address_refused';

export interface ClassifiedError {
  class: ErrorClass;
  /** The network's own words where it gave them, safe to show to the account (no secrets). */
  message: string;
  retryAfterMs?: number;
}

/** A published post's figures at the network, as running totals. */
export interface PostFigures {
  like?: number;
  share?: number;
  comment?: number;
  impression?: number;
  view?: number;
  click?: number;
}

export interface Provider {
  network: Network;
  /** The network's name as people know it ("Bluesky"). */
  name: string;
  /** Network defaults; a channel may override parts of them (DiscoveredChannel.limits). */
  limits: NetworkLimits;
  /**
   * True when a repeated `publish` of the same target can never make a second post (Mastodon's
   * Idempotency-Key, Bluesky's record keys): an unknown outcome is then retried, not
   * `unconfirmed`.
   */
  idempotent: boolean;
  /** The channels these credentials can publish to (at connect, and on reconnect). */
  discoverChannels(
    credentials: ProviderCredentials,
    context: ProviderContext,
  ): Promise<DiscoveredChannel[]>;
  /**
   * Rules beyond the limits table that need the network's knowledge (an aspect ratio, a
   * hashtag cap); [] when none. Paths are relative to the target: `mediaIds[0]`, `thread[1].content`,
   * `firstComment`.
   */
  validate(target: {
    parts: { text: string; media: Omit<PublishMedia, 'open' | 'signedUrl'>[] }[];
    /** The first comment, where a network holds comments to rules of their own. */
    firstComment?: string | null;
  }): {
    path: string;
    message: string;
  }[];
  publish(request: PublishRequest, context: ProviderContext): Promise<Published>;
  /**
   * The target's first post, once live, read from the progress `publish` saved: a target that
   * fails after it (a later thread part, the first comment) shows its link (docs/publishing.md,
   * States). `url` is null where the progress has none.
   */
  head(progress: PublishProgress): { externalId: string; url: string | null } | undefined;
  /**
   * What of `progress` stays true when a target is revised and its first `parts` parts (text
   * and media) are unchanged (docs/publishing.md, Targets): the posts of those parts that are
   * live, and nothing after them (later parts, the first comment, containers or uploads of a
   * post not made yet). The next attempt then sends only what follows them. `{}` for 0 parts.
   */
  keepParts(progress: PublishProgress, parts: number): PublishProgress;
  /** New credentials from the refresh token (or a new session); throws when refused. */
  refresh(credentials: ProviderCredentials, context: ProviderContext): Promise<ProviderCredentials>;
  classify(error: unknown): ClassifiedError;
  /** Figures of published posts by their external ids; a post the network lost is left out. */
  metrics(
    externalIds: string[],
    channel: { externalId: string; credentials: ProviderCredentials },
    context: ProviderContext,
  ): Promise<Map<string, PostFigures>>;
}
