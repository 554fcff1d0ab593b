import {
  sendKey,
  type ProviderContext,
  type PublishMedia,
  type PublishProgress,
  type PublishRequest,
  type Published,
} from '../../provider';
import { ProviderError } from '../common/provider-error';
import { facetsOf } from './facets';
import { embedOf } from './media';
import { recordKey } from './record-key';
import { session as openSession, type Session } from './session';
import { procedure, query } from './xrpc';

/**
 * Publishing a target as app.bsky.feed.post records: the first part, each further part a reply
 * to the one before it (a thread: `root` the first post, `parent` the previous one), and the
 * first comment as a reply to the first post. Each record's key is derived from the target
 * (record-key.ts), so a retry after an unknown outcome lands on the record already written;
 * what is done is saved in the progress after each record, so a retry also skips the calls.
 */

interface StrongRef {
  uri: string;
  cid: string;
}

const COLLECTION = 'app.bsky.feed.post';
/** How many derived keys are tried when another target's record holds one. */
const KEY_ATTEMPTS = 4;

const encode = (ref: StrongRef) => `${ref.uri} ${ref.cid}`;
function decode(value: string | string[] | undefined): StrongRef[] {
  const list = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return list.flatMap((entry) => {
    const [uri, cid] = entry.split(' ');
    return uri && cid ? [{ uri, cid }] : [];
  });
}

/** The thread's first post, once it is live (`Provider.head`). */
export function blueskyHead(progress: PublishProgress) {
  const [root] = decode(progress.posts);
  return root ? { externalId: root.uri, url: postUrl(root.uri) } : undefined;
}

/** The records of the first `parts` parts that are written (`Provider.keepParts`). */
export function blueskyKeep(progress: PublishProgress, parts: number): PublishProgress {
  const posts = decode(progress.posts).slice(0, Math.max(parts, 0));
  return posts.length === 0 ? {} : { posts: posts.map(encode) };
}

/** Where a person sees a post: the Bluesky app's address, by DID (handles can change). */
export function postUrl(uri: string): string {
  const [, , did, , rkey] = uri.split('/');
  return `https://bsky.app/profile/${did}/post/${rkey}`;
}

type PostRecord = Record<string, unknown> & { text: string; reply?: { parent: StrongRef } };

/** The record at this key is the one this attempt would write (an earlier attempt's). */
function sameRecord(existing: Partial<PostRecord>, ours: PostRecord): boolean {
  const embedType = (record: Partial<PostRecord>) => (record.embed as { $type?: string })?.$type;
  return (
    existing.text === ours.text &&
    existing.reply?.parent?.uri === ours.reply?.parent.uri &&
    embedType(existing) === embedType(ours)
  );
}

async function createOnce(
  session: Session,
  context: ProviderContext,
  key: { request: PublishRequest; part: number },
  record: PostRecord,
): Promise<StrongRef> {
  for (let attempt = 0; attempt < KEY_ATTEMPTS; attempt++) {
    const rkey = recordKey(key.request.targetId, key.part, attempt, sendKey(key.request));
    try {
      return await procedure<StrongRef>(
        context,
        'com.atproto.repo.createRecord',
        { repo: session.did, collection: COLLECTION, rkey, record },
        { token: session.accessJwt },
      );
    } catch (error) {
      // The reference PDS answers a key already taken with a 500, others with a 400: either
      // way, the record at the key tells whether an earlier attempt already wrote this one.
      const existing = await query<StrongRef & { value: Partial<PostRecord> }>(
        context,
        'com.atproto.repo.getRecord',
        { repo: session.did, collection: COLLECTION, rkey },
      ).catch(() => undefined);
      if (!existing) throw error;
      if (sameRecord(existing.value, record)) return { uri: existing.uri, cid: existing.cid };
    }
  }
  // Every derived key of this record is taken by other records: nothing can be written.
  throw new ProviderError({
    class: 'rejected',
    message: 'Bluesky already holds other posts under every key of this one.',
  });
}

export async function publishPost(
  request: PublishRequest,
  context: ProviderContext,
): Promise<Published> {
  const session = await openSession(request.channel.credentials, context);
  const progress: PublishProgress = { ...request.progress };
  const posted = decode(progress.posts);
  const recordOf = async (
    text: string,
    media: PublishMedia[],
    reply: { root: StrongRef; parent: StrongRef } | undefined,
  ): Promise<PostRecord> => ({
    $type: COLLECTION,
    text,
    createdAt: new Date().toISOString(),
    ...optional('facets', await facetsOf(text, context)),
    ...optional('embed', await embedOf(media, session, context)),
    ...(reply ? { reply } : {}),
  });
  for (let part = posted.length; part < request.parts.length; part++) {
    const { text, media } = request.parts[part] ?? { text: '', media: [] };
    const [root] = posted;
    const parent = posted.at(-1);
    const record = await recordOf(text, media, root && parent ? { root, parent } : undefined);
    posted.push(await createOnce(session, context, { request, part }, record));
    progress.posts = posted.map(encode);
    await request.saveProgress({ ...progress });
  }
  const [root] = posted;
  if (!root) throw new Error('A target needs a post.');
  if (request.firstComment !== null && progress.comment === undefined) {
    const record = await recordOf(request.firstComment, [], { root, parent: root });
    const key = { request, part: request.parts.length };
    progress.comment = encode(await createOnce(session, context, key, record));
    await request.saveProgress({ ...progress });
  }
  return { externalId: root.uri, url: postUrl(root.uri) };
}

/** `{ [name]: value }`, or nothing when the value is empty (the lexicon's fields are optional). */
function optional(name: string, value: unknown[] | Record<string, unknown> | undefined) {
  const empty = value === undefined || (Array.isArray(value) && value.length === 0);
  return empty ? {} : { [name]: value };
}
