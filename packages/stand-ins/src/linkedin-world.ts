import { createHash, randomBytes } from 'node:crypto';

/** What a LinkedIn stand-in holds: members, organisations, tokens, uploads and published posts. */

export interface LinkedInMember {
  /** The id in `urn:li:person:{id}` (OpenID's `sub`). */
  id: string;
  name: string;
  picture: string;
}

export interface LinkedInOrganization {
  id: string;
  localizedName: string;
  vanityName: string;
  /** Members and their page roles (`ADMINISTRATOR`, `CONTENT_ADMINISTRATOR`, `ANALYST`…). */
  roles: Map<string, string>;
}

export interface LinkedInGrant {
  memberId: string;
  scopes: string[];
  expiresAt: number;
  revoked: boolean;
  refreshToken: string;
}

export type MediaKind = 'image' | 'video' | 'document';

export interface LinkedInUpload {
  urn: string;
  kind: MediaKind;
  owner: string;
  /** WAITING_UPLOAD until its bytes arrive; videos are PROCESSING after finalizeUpload. */
  status: 'WAITING_UPLOAD' | 'PROCESSING' | 'AVAILABLE' | 'PROCESSING_FAILED';
  /** The byte ranges to PUT (one for images and documents, 4 MiB parts for videos). */
  parts: { uploadUrl: string; firstByte: number; lastByte: number; etag: string | null }[];
  size: number;
  sha256: string | null;
  /** Status reads a video answers PROCESSING before it is AVAILABLE. */
  pollsLeft: number;
  received: Buffer[];
}

export interface LinkedInPost {
  urn: string;
  author: string;
  /** As sent, in little text. */
  commentary: string;
  /** As a reader sees it (escapes and templates rendered). */
  text: string;
  visibility: string;
  /** `content` as sent: `media` (one image, video or document) or `multiImage`. */
  content: {
    media?: { id: string; altText?: string; title?: string };
    multiImage?: { images: { id: string; altText?: string }[] };
  } | null;
  createdAt: number;
  likes: number;
  comments: LinkedInComment[];
  shares: number;
  impressions: number;
  clicks: number;
}

export interface LinkedInComment {
  urn: string;
  actor: string;
  text: string;
}

export const token = () => `AQ${randomBytes(24).toString('base64url')}`;
let sequence = 7_270_000_000_000_000_000n;
/** LinkedIn's activity ids are large numbers growing with time. */
export const nextNumber = () => String(++sequence);
const assetId = (prefix: string) => `${prefix}${randomBytes(12).toString('base64url')}`;

export class LinkedInWorld {
  members = new Map<string, LinkedInMember>();
  organizations = new Map<string, LinkedInOrganization>();
  grants = new Map<string, LinkedInGrant>();
  /** Refresh token → the access token it was issued with. */
  refreshTokens = new Map<string, string>();
  uploads = new Map<string, LinkedInUpload>();
  /** Upload URL path → the upload and which part of it. */
  uploadUrls = new Map<string, { urn: string; part: number }>();
  posts = new Map<string, LinkedInPost>();
  /** Author, text and content → the post that has them (LinkedIn's duplicate check). */
  byContent = new Map<string, LinkedInPost>();
  /** Each author's posting times, oldest first (the daily limit). */
  private postedAt = new Map<string, number[]>();

  constructor(readonly baseUrl: string) {}

  addMember(name: string, scopes: string[]) {
    const member: LinkedInMember = {
      id: randomBytes(6).toString('base64url'),
      name,
      picture: `${this.baseUrl}/media/${randomBytes(6).toString('hex')}.jpg`,
    };
    this.members.set(member.id, member);
    return { member, ...this.grant(member.id, scopes) };
  }

  /** An access token for 60 days and a refresh token for a year, as LinkedIn issues them. */
  grant(memberId: string, scopes: string[]) {
    const access = token();
    const refresh = token();
    this.grants.set(access, {
      memberId,
      scopes,
      expiresAt: Date.now() + 60 * 86_400_000,
      revoked: false,
      refreshToken: refresh,
    });
    this.refreshTokens.set(refresh, access);
    return { token: access, refreshToken: refresh };
  }

  addOrganization(name: string, admins: [memberId: string, role: string][]) {
    const id = String(10_000_000 + this.organizations.size + 1);
    const vanityName = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    this.organizations.set(id, { id, localizedName: name, vanityName, roles: new Map(admins) });
    return `urn:li:organization:${id}`;
  }

  /** Registers an upload with its byte ranges and upload URLs (`partBytes` per part). */
  initializeUpload(kind: MediaKind, owner: string, size: number, partBytes: number, polls: number) {
    const prefix = { image: 'C4E10AQ', video: 'C5505AQ', document: 'D4D10AQ' }[kind];
    const urn = `urn:li:${kind}:${assetId(prefix)}`;
    const parts: LinkedInUpload['parts'] = [];
    for (let first = 0; first < Math.max(size, 1); first += partBytes) {
      const path = `/dms-uploads/${randomBytes(12).toString('hex')}`;
      this.uploadUrls.set(path, { urn, part: parts.length });
      parts.push({
        uploadUrl: `${this.baseUrl}${path}`,
        firstByte: first,
        lastByte: Math.min(size, first + partBytes) - 1,
        etag: null,
      });
    }
    this.uploads.set(urn, {
      urn,
      kind,
      owner,
      status: 'WAITING_UPLOAD',
      parts,
      size,
      sha256: null,
      pollsLeft: polls,
      received: [],
    });
    return this.uploads.get(urn) as LinkedInUpload;
  }

  /** Joins an upload's parts once all are in; images and documents are then available. */
  complete(upload: LinkedInUpload) {
    const bytes = Buffer.concat(upload.received);
    upload.sha256 = createHash('sha256').update(bytes).digest('hex');
    upload.size = bytes.length;
    upload.received = [];
    upload.status = upload.kind === 'video' ? 'PROCESSING' : 'AVAILABLE';
  }

  addPost(post: LinkedInPost, contentKey: string) {
    this.posts.set(post.urn, post);
    this.byContent.set(contentKey, post);
    const times = this.postedAt.get(post.author) ?? [];
    times.push(post.createdAt);
    this.postedAt.set(post.author, times);
  }

  /** How many posts `author` created since `since`, forgetting older ones. */
  postedSince(author: string, since: number) {
    const times = this.postedAt.get(author) ?? [];
    const first = times.findIndex((time) => time > since);
    times.splice(0, first === -1 ? times.length : first);
    return times.length;
  }

  /** Who may act as `author`: the member themself, or an organisation's poster. */
  mayActAs(memberId: string, author: string) {
    if (author === `urn:li:person:${memberId}`) return true;
    const organization = this.organizations.get(author.replace('urn:li:organization:', ''));
    const role = organization?.roles.get(memberId);
    return (
      role === 'ADMINISTRATOR' ||
      role === 'CONTENT_ADMINISTRATOR' ||
      role === 'DIRECT_SPONSORED_CONTENT_POSTER'
    );
  }
}
