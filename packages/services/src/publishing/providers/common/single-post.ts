import type { Provider, PublishProgress } from '../../provider';

const one = (value: string | string[] | undefined) =>
  typeof value === 'string' ? value : undefined;

/**
 * `head` and `keepParts` of a network without threads (LinkedIn, Facebook, Instagram), whose
 * progress names the live post under `key` and, once read from the network, its link under
 * `url`. The first comment follows the post, so a target whose comment fails links to the post,
 * and a revision that keeps the post's text and media keeps the post: only the comment is sent.
 */
export function singlePost(
  key: string,
  /** The post's link where the network's is made from its id (LinkedIn), or none. */
  linkOf: (id: string) => string | null = () => null,
): Pick<Provider, 'head' | 'keepParts'> {
  return {
    head(progress) {
      const id = one(progress[key]);
      return id === undefined
        ? undefined
        : { externalId: id, url: one(progress.url) ?? linkOf(id) };
    },
    keepParts(progress, parts): PublishProgress {
      const id = one(progress[key]);
      if (parts < 1 || id === undefined) return {};
      const url = one(progress.url);
      return url === undefined ? { [key]: id } : { [key]: id, url };
    },
  };
}
