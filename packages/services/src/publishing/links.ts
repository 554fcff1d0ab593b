import { isWebUrl } from '@chorus/validators';
import { warnOperator } from '../shared/worker-log';

/** Longer than any post's or avatar's address; what a browser and a log line still take. */
const MAX_LINK = 2048;

/**
 * A link a network gave (a post's `url`, a channel's avatar) as Chorus keeps and serves it: an
 * absolute http(s) URL, normalised (control characters and spaces escaped), or null. Anything
 * else (`javascript:`, `data:`, a relative path) is dropped and logged for the operator with
 * `about`, as the API and the dashboard show these links to people (docs/publishing.md).
 */
export function networkLink(
  link: string | null | undefined,
  about: Record<string, unknown>,
): string | null {
  if (link === null || link === undefined) return null;
  const trimmed = link.trim();
  if (trimmed.length <= MAX_LINK && isWebUrl(trimmed)) return new URL(trimmed).href;
  warnOperator('network link dropped', { ...about, link: link.slice(0, 200) });
  return null;
}
