import type { Provider } from '../../provider';

const one = (value: string | string[] | undefined) =>
  typeof value === 'string' ? value : undefined;

/**
 * `head` of a network without threads (LinkedIn, Facebook, Instagram), whose progress names the
 * live post under `key` and, once read from the network, its link under `url`. The first
 * comment follows the post, so a target whose comment fails links to the post.
 */
export function singlePost(
  key: string,
  /** The post's link where the network's is made from its id (LinkedIn), or none. */
  linkOf: (id: string) => string | null = () => null,
): Pick<Provider, 'head'> {
  return {
    head(progress) {
      const id = one(progress[key]);
      return id === undefined
        ? undefined
        : { externalId: id, url: one(progress.url) ?? linkOf(id) };
    },
  };
}
