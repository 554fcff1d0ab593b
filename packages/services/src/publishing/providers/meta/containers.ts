import type { PublishMedia } from '../../provider';
import { ProviderError } from '../common/provider-error';
import { isMissingObject } from './errors';
import type { Progress } from './progress';

/**
 * Instagram's and Threads' two-step publishing: a media container is created (the network
 * fetches the media by URL and processes it), polled until `FINISHED`, then published. Creating
 * a container shows nothing to anyone, so it is safe to repeat; publishing is not. Containers are
 * kept in the target's progress, so a retry reuses them, and a container found `PUBLISHED` means
 * an earlier attempt's publish went through: it is never published again.
 */
export type ContainerStatus = 'IN_PROGRESS' | 'FINISHED' | 'ERROR' | 'EXPIRED' | 'PUBLISHED';

export interface ContainerApi {
  /** The network's name, for messages. */
  name: string;
  status(id: string): Promise<{ status: ContainerStatus; detail?: string }>;
  /** The post's own container when it has at most one attachment. */
  single(): Promise<string>;
  /** One carousel item's container. */
  item(media: PublishMedia): Promise<string>;
  carousel(children: string[]): Promise<string>;
  /** Publishes a ready container; the published post's id. */
  publish(container: string): Promise<string>;
}

/** A container that failed or expired: the next attempt makes a new one. */
class ContainerLost extends ProviderError {}

/** Meta recommends polling a container for at most five minutes. */
const POLL_BUDGET_MS = 5 * 60_000;
const FIRST_POLL_MS = 250;
const LONGEST_POLL_MS = 15_000;

/** Waits between polls; stopped by the attempt's signal, which is safe: nothing was published. */
const sleep = (ms: number, name: string, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const stopped = () =>
      new ProviderError({
        class: 'transient',
        message: `Stopped while ${name} was still processing the media.`,
      });
    if (signal?.aborted) return reject(stopped());
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(stopped());
    });
  });

async function ready(api: ContainerApi, id: string, signal: AbortSignal | undefined) {
  let waited = 0;
  for (let delay = FIRST_POLL_MS; ; delay = Math.min(delay * 2, LONGEST_POLL_MS)) {
    const { status, detail } = await api.status(id);
    if (status === 'FINISHED') return;
    if (status === 'PUBLISHED') {
      throw new ProviderError({
        class: 'unknown_outcome',
        message: `${api.name} reports this post as already published by an earlier attempt (container ${id}); check the account and resolve the target.`,
      });
    }
    if (status === 'ERROR') {
      throw new ContainerLost({
        class: 'rejected',
        message: `${api.name} could not process the media${detail ? `: ${detail}` : '.'}`,
      });
    }
    if (status === 'EXPIRED') {
      throw new ContainerLost({
        class: 'transient',
        message: `The ${api.name} container expired.`,
      });
    }
    if (waited >= POLL_BUDGET_MS) {
      throw new ProviderError({
        class: 'transient',
        message: `${api.name} is still processing the media after ${POLL_BUDGET_MS / 60_000} minutes.`,
      });
    }
    await sleep(delay, api.name, signal);
    waited += delay;
  }
}

/** The progress keys of a post's containers, cleared: saved with the published post's id. */
export const released = (key: string) => ({
  [`${key}.container`]: undefined,
  [`${key}.children`]: undefined,
});

/**
 * Publishes one post through its container, continuing from what `progress` holds under `key`,
 * and answers the published post's id. A container that failed or expired is forgotten (so the
 * next attempt makes a new one) before the failure is reported.
 */
export async function publishContainer(options: {
  api: ContainerApi;
  progress: Progress;
  key: string;
  media: PublishMedia[];
  signal?: AbortSignal;
}): Promise<string> {
  const { api, progress, key, media, signal } = options;
  const containerKey = `${key}.container`;
  const childrenKey = `${key}.children`;
  const forget = () => progress.save(released(key));
  const guarded = async (work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      if (error instanceof ContainerLost) await forget();
      throw error;
    }
  };
  // A container from an earlier attempt that failed, expired (after 24 hours) or is gone is
  // made again.
  const usable = async (id: string) => {
    try {
      const { status } = await api.status(id);
      return status !== 'ERROR' && status !== 'EXPIRED';
    } catch (error) {
      if (isMissingObject(error)) return false;
      throw error;
    }
  };
  let container = progress.get(containerKey);
  if (container && !(await usable(container))) {
    await forget();
    container = undefined;
  }
  if (!container) {
    if (media.length > 1) {
      let children = progress.list(childrenKey);
      for (const child of children) {
        if (!(await usable(child))) {
          children = [];
          break;
        }
      }
      for (const item of media.slice(children.length)) {
        children.push(await api.item(item));
        await progress.save({ [childrenKey]: children });
      }
      await guarded(async () => {
        for (const child of children) await ready(api, child, signal);
      });
      container = await api.carousel(children);
    } else {
      container = await api.single();
    }
    await progress.save({ [containerKey]: container });
  }
  const id = container;
  await guarded(() => ready(api, id, signal));
  return api.publish(id);
}
