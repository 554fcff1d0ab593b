import { randomBytes } from 'node:crypto';

/** What a Mastodon stand-in holds: accounts, tokens, apps, media and the statuses it published. */

export interface MastodonAccount {
  id: string;
  username: string;
  displayName: string;
  avatar: string;
  statusesCount: number;
}

export interface MastodonGrant {
  /** Null for an app token (client credentials): no user behind it. */
  accountId: string | null;
  scopes: string[];
  revoked: boolean;
}

export interface MastodonApp {
  name: string;
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  scopes: string[];
}

export interface MastodonMedia {
  id: string;
  accountId: string;
  type: 'image' | 'video' | 'gifv';
  mimeType: string;
  size: number;
  sha256: string;
  description: string | null;
  /** `GET /api/v1/media/:id` answers 206 (still processing) this many more times. */
  pollsLeft: number;
  statusId: string | null;
}

export interface MastodonStatus {
  id: string;
  accountId: string;
  text: string;
  inReplyToId: string | null;
  mediaIds: string[];
  idempotencyKey: string | null;
  visibility: string;
  favourites: number;
  reblogs: number;
  replies: number;
  createdAt: Date;
}

/** Mastodon's ids are snowflakes: numeric strings that grow with time. */
let sequence = 110_000_000_000_000_000n;
export const nextId = () => String(++sequence);
export const secret = () => randomBytes(24).toString('base64url');

/** A read scope covers `read:*`, as Mastodon's scope hierarchy does. */
export const scopeCovers = (granted: string[], needed: string) =>
  granted.includes(needed) || granted.includes(needed.split(':')[0] ?? needed);

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * Mastodon's StatusLengthValidator, written independently of Chorus's own counting: graphemes,
 * every URL counting 23, a remote mention counting without its domain.
 */
export function statusLength(text: string): number {
  const countable = text
    .replace(/https?:\/\/\S+/g, 'x'.repeat(23))
    .replace(/@(\w+)@[\w.-]+\w/g, '@$1');
  let count = 0;
  for (const _ of segmenter.segment(countable)) count++;
  return count;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export class MastodonWorld {
  accounts = new Map<string, MastodonAccount>();
  grants = new Map<string, MastodonGrant>();
  apps = new Map<string, MastodonApp>();
  media = new Map<string, MastodonMedia>();
  statuses = new Map<string, MastodonStatus>();
  /** `accountId:key` → the status it created and when (Mastodon keeps keys for an hour). */
  idempotency = new Map<string, { statusId: string; at: number }>();

  constructor(
    readonly baseUrl: string,
    /** Accounts numbered 1, 2, 3… of its own, where by default they take the process's sequence. */
    private readonly ownAccountIds = false,
  ) {}

  addAccount(opts: { username?: string; displayName?: string; scopes?: string[] } = {}) {
    const id = this.ownAccountIds ? String(this.accounts.size + 1) : nextId();
    const username = opts.username ?? `user${this.accounts.size + 1}`;
    const account: MastodonAccount = {
      id,
      username,
      displayName: opts.displayName ?? username,
      avatar: `${this.baseUrl}/avatars/${id}.png`,
      statusesCount: 0,
    };
    this.accounts.set(id, account);
    const token = secret();
    this.grants.set(token, {
      accountId: id,
      scopes: opts.scopes ?? ['read', 'write'],
      revoked: false,
    });
    return { account, token };
  }

  accountJson(account: MastodonAccount) {
    return {
      id: account.id,
      username: account.username,
      acct: account.username,
      display_name: account.displayName,
      locked: false,
      bot: false,
      created_at: '2024-01-01T00:00:00.000Z',
      note: '',
      url: `${this.baseUrl}/@${account.username}`,
      avatar: account.avatar,
      avatar_static: account.avatar,
      header: `${this.baseUrl}/headers/original/missing.png`,
      header_static: `${this.baseUrl}/headers/original/missing.png`,
      followers_count: 0,
      following_count: 0,
      statuses_count: account.statusesCount,
      emojis: [],
      fields: [],
    };
  }

  mediaJson(media: MastodonMedia, processed = media.pollsLeft <= 0) {
    const file = `${this.baseUrl}/media_attachments/files/${media.id}`;
    return {
      id: media.id,
      type: media.type,
      url: processed ? `${file}/original` : null,
      preview_url: `${file}/small`,
      remote_url: null,
      text_url: null,
      meta: {},
      description: media.description,
      blurhash: null,
    };
  }

  statusJson(status: MastodonStatus) {
    const account = this.accounts.get(status.accountId);
    const username = account?.username ?? 'unknown';
    const parent = status.inReplyToId ? this.statuses.get(status.inReplyToId) : undefined;
    return {
      id: status.id,
      created_at: status.createdAt.toISOString(),
      in_reply_to_id: status.inReplyToId,
      in_reply_to_account_id: parent?.accountId ?? null,
      sensitive: false,
      spoiler_text: '',
      visibility: status.visibility,
      language: null,
      uri: `${this.baseUrl}/users/${username}/statuses/${status.id}`,
      url: `${this.baseUrl}/@${username}/${status.id}`,
      replies_count: status.replies,
      reblogs_count: status.reblogs,
      favourites_count: status.favourites,
      edited_at: null,
      content: `<p>${escapeHtml(status.text)}</p>`,
      reblog: null,
      application: { name: 'Chorus', website: null },
      account: account ? this.accountJson(account) : null,
      media_attachments: status.mediaIds.flatMap((id) => {
        const media = this.media.get(id);
        return media ? [this.mediaJson(media)] : [];
      }),
      mentions: [],
      tags: [],
      emojis: [],
      card: null,
      poll: null,
    };
  }
}
