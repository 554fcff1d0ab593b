/**
 * Sample content for an account, through the public API, so the dashboard has something to
 * show: to try Chorus, and for the screenshots (scripts/screenshots.ts):
 *
 *   CHORUS_URL=http://localhost:3000 CHORUS_API_KEY=… npm run -w @chorus/e2e demo
 *
 * The key needs the scopes read, write, content:write and analytics:write, and an admin's role.
 * It adds three members, three images, posts in every state (a weekly series among them), 30
 * days of tracked engagement and, when the app allows private targets
 * (`CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS=true`: they point at this machine), two webhooks.
 * Use a throwaway account: nothing is removed.
 */
import { png } from '../test/png';

const base = process.env.CHORUS_URL ?? 'http://localhost:3000';
const key = process.env.CHORUS_API_KEY ?? '';
if (!key) throw new Error('CHORUS_API_KEY is required');

const DAY_MS = 86_400_000;

async function api(method: string, path: string, body?: unknown): Promise<{ id: string }> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as { data: unknown; error?: { details?: unknown } };
  if (!response.ok) throw new Error(`${method} ${path}: ${JSON.stringify(json.error)}`);
  return json.data as { id: string };
}

async function upload(name: string, colour: [number, number, number]) {
  const form = new FormData();
  const image = png(1200, 675, colour);
  form.append('file', new Blob([new Uint8Array(image)], { type: 'image/png' }), name);
  const response = await fetch(`${base}/api/content/media`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  if (!response.ok) throw new Error(`upload ${name}: ${response.status}`);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

/** `days` from today at `hour`:00 UTC. */
const dayAt = (days: number, hour: number) => {
  const at = new Date(Date.now() + days * DAY_MS);
  at.setUTCHours(hour, 0, 0, 0);
  return at.toISOString();
};

for (const [name, role] of [
  ['Maya Lindqvist', 'admin'],
  ['Jonas Berg', 'user'],
  ['Aiko Tanaka', 'user'],
] as const) {
  const email = `${name.split(' ')[0]?.toLowerCase()}.${Date.now()}@northwind.example`;
  await api('POST', '/api/users', { name, email, password: 'demo-password-1', role });
}

const media = [
  await upload('spring-collection.png', [79, 70, 229]),
  await upload('studio-visit.png', [16, 185, 129]),
  await upload('autumn-preview.png', [234, 88, 12]),
];

const published: string[] = [];
for (const [title, tags] of [
  ['Spring collection is live', ['launch', 'spring']],
  ['Behind the scenes at the studio', ['studio']],
  ['Customer story: Harbour Café', ['customers']],
  ['Five ways to care for linen', ['tips']],
] as const) {
  const post = await api('POST', '/api/content/posts', {
    title,
    content: `${title}. Read more at https://example.com/journal`,
    status: 'published',
    tags,
    mediaIds: [media[published.length % media.length]],
  });
  published.push(post.id);
}
for (const [title, days] of [
  ['Autumn preview teaser', 1],
  ['Workshop sign-ups open', 3],
  ['Studio open day', 6],
] as const) {
  await api('POST', '/api/content/posts', {
    title,
    content: `${title}: details at https://example.com/events`,
    status: 'scheduled',
    scheduledAt: dayAt(days, 10),
    tags: ['events'],
  });
}
await api('POST', '/api/content/posts', {
  title: 'Tip of the week',
  content: 'One small habit that makes clothes last longer.',
  status: 'scheduled',
  scheduledAt: dayAt(2, 9),
  recurrence: 'FREQ=WEEKLY',
  tags: ['tips'],
});
for (const title of ['Newsletter: November recap', 'Holiday opening hours']) {
  await api('POST', '/api/content/posts', { title, content: 'To be written.' });
}

// Receivers on this machine that are not there: their deliveries fail and are retried. An app
// that refuses private targets (its default) refuses them: the rest is added all the same.
let webhooks = 0;
try {
  for (const [path, events] of [
    ['posts', ['post.published', 'post.failed']],
    ['users', ['user.created', 'user.deleted']],
  ] as const) {
    await api('POST', '/api/webhooks', { url: `http://127.0.0.1:9/northwind/${path}`, events });
    webhooks++;
  }
} catch (error) {
  console.warn(
    `no webhooks (${String(error)}); start the app with CHORUS_WEBHOOK_ALLOW_PRIVATE_TARGETS=true for them`,
  );
}

// 30 days of engagement, each day's figures as one event per type and platform, rising a
// little over the month and lower at weekends.
const events: Record<string, unknown>[] = [];
for (let day = 29; day >= 0; day--) {
  // Midday, or now for today if it is not midday yet: events cannot be in the future.
  const occurredAt = new Date(Math.min(Date.parse(dayAt(-day, 12)), Date.now())).toISOString();
  const weekday = new Date(occurredAt).getUTCDay();
  const scale = (1 + (29 - day) / 40) * (weekday === 0 || weekday === 6 ? 0.6 : 1);
  for (const [integrationId, share] of [
    ['bluesky', 0.55],
    ['mastodon', 0.45],
  ] as const) {
    const contentId = published[day % published.length];
    const figure = (n: number) => Math.max(1, Math.round(n * scale * share));
    for (const [type, count] of [
      ['impression', figure(900)],
      ['view', figure(300)],
      ['click', figure(40)],
      ['like', figure(60)],
      ['share', figure(12)],
      ['comment', figure(8)],
      ['follow', figure(3)],
    ] as const) {
      events.push({ type, count, integrationId, contentId, occurredAt });
    }
  }
}
await api('POST', '/api/analytics/events', { events });

console.log(
  `demo content added to ${base}: 3 users, ${media.length} images, 10 posts, ${webhooks} webhooks, ${events.length} tracked events`,
);
