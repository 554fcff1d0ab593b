import { z } from 'zod';
import type { PostFigures } from '../../provider';
import { isMissingObject } from './errors';
import type { Graph } from './graph';

/** `/{id}/insights` answers: each metric's lifetime value in `values` (or `total_value`). */
const ZInsights = z.object({
  data: z.array(
    z.object({
      name: z.string(),
      values: z.array(z.object({ value: z.number() })).optional(),
      total_value: z.object({ value: z.number() }).optional(),
    }),
  ),
});

/**
 * Each post's figures, read one post at a time (the insights edge takes one id); a post the
 * network no longer has is left out, any other failure is thrown.
 */
export async function readFigures(
  ids: string[],
  read: (id: string) => Promise<PostFigures>,
): Promise<Map<string, PostFigures>> {
  const figures = new Map<string, PostFigures>();
  for (const id of ids) {
    try {
      figures.set(id, await read(id));
    } catch (error) {
      if (!isMissingObject(error)) throw error;
    }
  }
  return figures;
}

/** The named metrics of one post's insights, 0 for those the network left out. */
export async function insights(graph: Graph, id: string, metrics: readonly string[]) {
  const { data } = await graph.get(`${id}/insights`, ZInsights, { metric: metrics.join(',') });
  const values: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const metric of metrics) values[metric] = 0;
  for (const entry of data) {
    if (metrics.includes(entry.name)) {
      values[entry.name] = entry.values?.[0]?.value ?? entry.total_value?.value ?? 0;
    }
  }
  return values;
}
