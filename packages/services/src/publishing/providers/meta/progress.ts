import type { PublishProgress, PublishRequest } from '../../provider';

/**
 * What a target achieved at the network so far (containers made, photos uploaded, posts
 * published), saved before each next step so that a retry continues instead of repeating.
 */
export class Progress {
  private state: PublishProgress;

  constructor(private readonly request: Pick<PublishRequest, 'progress' | 'saveProgress'>) {
    this.state = { ...request.progress };
  }

  get(key: string): string | undefined {
    const value = this.state[key];
    return typeof value === 'string' ? value : undefined;
  }

  list(key: string): string[] {
    const value = this.state[key];
    return Array.isArray(value) ? [...value] : [];
  }

  /** Sets (or, with `undefined`, forgets) keys and saves before the next network call. */
  async save(patch: Record<string, string | string[] | undefined>) {
    const next: PublishProgress = { ...this.state };
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) delete next[key];
      else next[key] = value;
    }
    this.state = next;
    await this.request.saveProgress({ ...next });
  }
}
