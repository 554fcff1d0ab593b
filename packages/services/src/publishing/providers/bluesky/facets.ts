// The detection of the reference client (@atproto/api's RichText), imported alone: the
// package's index loads every lexicon (~0.8 s), and detection needs none of them.
import { detectFacets, type Facet } from '@atproto/api/dist/rich-text/detection.js';
import { UnicodeString } from '@atproto/api/dist/rich-text/unicode.js';
import type { ProviderContext } from '../../provider';
import { query, xrpcError } from './xrpc';

/**
 * Links, mentions and hashtags of a post's text as app.bsky.richtext.facet requires: ranges
 * in UTF-8 bytes, a mention pointing at the DID its handle resolves to. A handle that resolves
 * to no account stays plain text, as in the Bluesky app; a failure to ask is thrown (retried).
 */
export async function facetsOf(text: string, context: ProviderContext): Promise<Facet[]> {
  const detected = detectFacets(new UnicodeString(text)) ?? [];
  const handles = new Set<string>();
  for (const facet of detected) {
    for (const feature of facet.features) {
      if (isMention(feature)) handles.add(feature.did);
    }
  }
  const dids = new Map<string, string | null>();
  await Promise.all(
    [...handles].map(async (handle) => dids.set(handle, await resolve(handle, context))),
  );
  const facets: Facet[] = [];
  for (const facet of detected) {
    const features = facet.features.flatMap((feature) => {
      if (!isMention(feature)) return [feature];
      const did = dids.get(feature.did);
      return did ? [{ ...feature, did }] : [];
    });
    if (features.length > 0) facets.push({ ...facet, features });
  }
  return facets;
}

const isMention = (feature: Facet['features'][number]): feature is { $type: string; did: string } =>
  feature.$type === 'app.bsky.richtext.facet#mention' && 'did' in feature;

async function resolve(handle: string, context: ProviderContext): Promise<string | null> {
  try {
    const { did } = await query<{ did: string }>(context, 'com.atproto.identity.resolveHandle', {
      handle,
    });
    return did;
  } catch (error) {
    // An unknown handle is a 400 InvalidRequest ("Unable to resolve handle").
    if (xrpcError(error)?.name === 'InvalidRequest') return null;
    throw error;
  }
}
