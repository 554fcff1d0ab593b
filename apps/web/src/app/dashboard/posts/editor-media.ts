import type { Media } from '@chorus/validators';
import type { DashboardCaller } from '~/server/dashboard';

/**
 * What the media picker lists: the post's attachments (always, or saving would drop those
 * not listed) and the library's newest files, as the largest page holds them. `missing`: the
 * attachments deleted from the library since, which the post still names (docs/media.md,
 * Deleting); the picker cannot list them, so saving the post takes them out.
 */
export async function editorMedia(caller: DashboardCaller, attached: string[] = []) {
  const page = await caller.media.list({ limit: 100 });
  const listed = new Set(page.data.map((item) => item.id));
  const extra: Media[] = [];
  const missing: string[] = [];
  // One query after another: the embedded database's socket refuses pipelined statements.
  for (const id of attached.filter((id) => !listed.has(id))) {
    const found = await caller.media.get({ id }).then(
      (answer) => answer.data,
      (error: unknown) => {
        if ((error as { code?: string }).code === 'NOT_FOUND') return undefined;
        throw error;
      },
    );
    if (found) extra.push(found);
    else missing.push(id);
  }
  return { media: [...extra, ...page.data], more: page.meta.pagination.totalPages > 1, missing };
}
