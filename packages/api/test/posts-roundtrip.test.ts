import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';
import { createPost, inAnHour, mediaOf } from './posts-fixtures';
import { channelOf } from './targets-fixtures';

/**
 * An export imports back (docs/settings-and-import-export.md, What an export brings back):
 * each account here is fresh, so its exports hold exactly the posts the test wrote.
 */
let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

interface Exported {
  id: string;
  title: string;
  content: string;
  tags: string[];
  status: string;
  scheduledAt: string | null;
  targets: { channelId: string; content: string | null; firstComment: string | null }[];
}

async function exportOf(token: string, format: 'csv' | 'json') {
  const res = await h.handle(
    new Request(`http://localhost:3000/api/content/posts/export?format=${format}`, {
      headers: { authorization: `Bearer ${token}` },
    }),
  );
  expect(res.status).toBe(200);
  return res.text();
}

const importOf = (token: string, file: string, format: 'csv' | 'json', query = '') =>
  h.call('POST', `/api/content/posts/import${query}`, {
    token,
    ...(format === 'csv' ? { raw: file, contentType: 'text/csv' } : { raw: file }),
  });

/** What a round trip keeps of a post, the same whatever its id or dates. */
const kept = (post: Exported) =>
  JSON.stringify({
    title: post.title,
    content: post.content,
    tags: post.tags,
    status: post.status,
    scheduledAt: post.scheduledAt,
    channels: post.targets.map((target) => target.channelId),
  });

/** An account with two channels and three posts: two going to channels, one without. */
async function accountWithPosts(name: string) {
  const account = await h.newAccount(name, `admin@${name.toLowerCase()}.test`);
  const bluesky = await channelOf(h, account.accountId, 'bluesky');
  const mastodon = await channelOf(h, account.accountId, 'mastodon');
  const at = inAnHour();
  await createPost(
    h,
    {
      title: 'Launch',
      content: 'We are live',
      tags: ['launch', 'news'],
      status: 'scheduled',
      scheduledAt: at,
      targets: [{ channelId: mastodon }, { channelId: bluesky, firstComment: 'Details' }],
    },
    account.token,
  );
  await createPost(
    h,
    { title: 'Draft', content: 'Later', targets: [{ channelId: bluesky }] },
    account.token,
  );
  await createPost(h, { title: 'Plain', tags: ['x'] }, account.token);
  return { ...account, bluesky, mastodon };
}

/** The account's posts as a round trip keeps them, sorted, each as often as it is there. */
const postsOf = async (token: string) =>
  (JSON.parse(await exportOf(token, 'json')) as Exported[]).map(kept).sort();

describe('an export imports back', () => {
  for (const format of ['csv', 'json'] as const) {
    it(`${format}: a dry run then the import bring back title, content, tags, scheduledAt and channels`, async () => {
      const account = await accountWithPosts(`Round${format}`);
      const before = await postsOf(account.token);
      expect(before).toHaveLength(3);
      const file = await exportOf(account.token, format);
      const dry = await importOf(account.token, file, format, '?dryRun=true');
      expect(dry.status, JSON.stringify(dry.json)).toBe(200);
      expect(dry.json.data).toMatchObject({ valid: true, count: 3, issues: [] });
      expect(await postsOf(account.token)).toEqual(before);
      const real = await importOf(account.token, file, format);
      expect(real.status, JSON.stringify(real.json)).toBe(201);
      expect(real.json.data.ids).toHaveLength(3);
      // Each post is there twice now: as written, and as the export brought it back.
      expect(await postsOf(account.token)).toEqual([...before, ...before].sort());
    });

    it(`${format}: another account's channels in the file are refused by row, nothing imported`, async () => {
      const owner = await accountWithPosts(`Owner${format}`);
      const file = await exportOf(owner.token, format);
      const other = await h.newAccount(`Other${format}`, `admin@other${format}.test`);
      for (const query of ['?dryRun=true', '']) {
        const { status, json } = await importOf(other.token, file, format, query);
        const issues = query ? json.data.issues : json.error.details.issues;
        expect(status, query).toBe(query ? 200 : 400);
        const refused = issues.map((issue: { row: number; path: string; message: string }) => [
          issue.row,
          issue.path,
          issue.message,
        ]);
        // Newest first: Plain (row 1, no channels), Draft (row 2), Launch (row 3).
        expect(refused).toEqual([
          [2, 'targets[0].channelId', `Unknown channel: ${owner.bluesky}.`],
          [3, 'targets[0].channelId', `Unknown channel: ${owner.mastodon}.`],
          [3, 'targets[1].channelId', `Unknown channel: ${owner.bluesky}.`],
        ]);
      }
      expect(await postsOf(other.token)).toEqual([]);
    });
  }

  it("json: targets' own fields, media and recurrence come back; published posts and others' media are refused", async () => {
    const account = await accountWithPosts('Fields');
    const medium = await mediaOf(h, account.accountId);
    const target = { channelId: account.bluesky, content: 'Short', firstComment: 'Details' };
    const weekly = await createPost(
      h,
      {
        title: 'Weekly',
        status: 'scheduled',
        scheduledAt: inAnHour(),
        recurrence: 'FREQ=WEEKLY;COUNT=3',
        mediaIds: [medium],
        targets: [target],
      },
      account.token,
    );
    const items = async () => JSON.parse(await exportOf(account.token, 'json')) as Exported[];
    const exported = (await items()).filter((post) => post.title === 'Weekly');
    const imported = await importOf(account.token, JSON.stringify(exported), 'json');
    expect(imported.status, JSON.stringify(imported.json)).toBe(201);
    const copy = await h.call('GET', `/api/content/posts/${imported.json.data.ids[0]}`, {
      token: account.token,
    });
    const same = ({ recurrence, mediaIds, scheduledAt, targets }: typeof weekly) => ({
      recurrence,
      mediaIds,
      scheduledAt,
      targets: (targets as Exported['targets']).map(({ channelId, content, firstComment }) => ({
        channelId,
        content,
        firstComment,
      })),
    });
    expect(same(copy.json.data)).toEqual(same(weekly));
    expect(same(copy.json.data).targets).toEqual([target]);
    await createPost(h, { title: 'Out', status: 'published' }, account.token);
    await createPost(h, { title: 'Pictured', mediaIds: [medium] }, account.token);
    const posts = (await items()).filter((post) => ['Out', 'Pictured'].includes(post.title));
    const other = await h.newAccount('Elsewhere', 'admin@elsewhere.test');
    const { status, json } = await importOf(other.token, JSON.stringify({ posts }), 'json');
    expect(status).toBe(400);
    expect(json.error.details.issues).toEqual([
      { row: 1, path: 'mediaIds', message: expect.stringContaining(medium) },
      { row: 2, path: 'status', message: 'Imported posts are draft or scheduled.' },
    ]);
  });
});
