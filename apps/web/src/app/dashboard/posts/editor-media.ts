import type { Media } from '@chorus/validators';
import type { DashboardCaller } from '~/server/dashboard';

/**
 * What the media picker lists: the post's attachments (always, or saving would drop those
 * not listed) and the library's newest files, as the largest page holds them.
 */
export async function editorMedia(caller: DashboardCaller, attached: string[] = []) {
  const page = await caller.media.list({ limit: 100 });
  const listed = new Set(page.data.map((item) => item.id));
  const extra: Media[] = [];
  // One query after another: the embedded database's socket refuses pipelined statements.
  for (const id of attached.filter((id) => !listed.has(id))) {
    extra.push((await caller.media.get({ id })).data);
  }
  return { media: [...extra, ...page.data], more: page.meta.pagination.totalPages > 1 };
}
