import { graphId, missingObject } from './graph-kit';

/**
 * Media containers, as Instagram and Threads publish: a container is created from media the
 * network fetches by URL, processed (`IN_PROGRESS`, then `FINISHED` or `ERROR`), and published
 * once (`PUBLISHED`); an unpublished one expires after 24 hours (`EXPIRED`).
 */
export type ContainerStatus = 'IN_PROGRESS' | 'FINISHED' | 'ERROR' | 'EXPIRED' | 'PUBLISHED';

export interface Container<Spec> {
  id: string;
  owner: string;
  spec: Spec;
  status: ContainerStatus;
  /** Why processing failed (the network's own words or code). */
  error?: string;
  /** How many more status reads answer IN_PROGRESS (processing without a clock). */
  pollsLeft: number;
  publishedId?: string;
}

export class ContainerBook<Spec> {
  readonly all = new Map<string, Container<Spec>>();

  create(owner: string, spec: Spec, options: { pollsLeft?: number; error?: string } = {}) {
    const container: Container<Spec> = {
      id: graphId(),
      owner,
      spec,
      status: options.error ? 'ERROR' : options.pollsLeft ? 'IN_PROGRESS' : 'FINISHED',
      error: options.error,
      pollsLeft: options.pollsLeft ?? 0,
    };
    this.all.set(container.id, container);
    return container;
  }

  /** A container of `owner` (another account's is as good as missing). */
  get(id: string, owner: string) {
    const container = this.all.get(id);
    if (!container || container.owner !== owner) throw missingObject(id);
    return container;
  }

  /** Reads the status the way a status request sees it: processing advances one step. */
  read(id: string, owner: string) {
    const container = this.get(id, owner);
    if (container.status === 'IN_PROGRESS') {
      if (container.pollsLeft > 0) container.pollsLeft--;
      else container.status = 'FINISHED';
    }
    return container;
  }

  /** What tests see and switch: the containers, and 24 hours passing over the unpublished. */
  get switches() {
    return {
      containers: this.all,
      expireContainers: () => {
        for (const container of this.all.values()) {
          if (container.status !== 'PUBLISHED') container.status = 'EXPIRED';
        }
      },
    };
  }
}

/** What a network found at a media URL it was given. */
export type Fetched =
  | { ok: true; bytes: Buffer; contentType: string }
  | { ok: false; reason: 'unreachable' | 'too_large' };

/** Fetches a media URL as the network's crawler does, reading no more than `maxBytes`. */
export async function fetchMedia(url: string, maxBytes: number): Promise<Fetched> {
  let res: Response;
  try {
    res = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(10_000) });
  } catch {
    return { ok: false, reason: 'unreachable' };
  }
  if (!res.ok || !res.body) return { ok: false, reason: 'unreachable' };
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.length;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return { ok: false, reason: 'too_large' };
    }
    chunks.push(read.value);
  }
  return {
    ok: true,
    bytes: Buffer.concat(chunks),
    contentType: res.headers.get('content-type') ?? '',
  };
}

/** The format of media bytes, from their first bytes (what the network trusts, not the name). */
export function sniff(bytes: Buffer): 'jpeg' | 'png' | 'mp4' | 'other' {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]))) return 'png';
  if (bytes.subarray(4, 8).toString('latin1') === 'ftyp') return 'mp4';
  return 'other';
}
