import { z } from 'zod';

/** A page's query as Next hands it over: a key may come once, several times, or not at all. */
export type SearchParams = Record<string, string | string[] | undefined>;

type Fields = Record<string, z.ZodType>;
type Parsed<F extends Fields> = { [K in keyof F]: z.output<F[K]> };

/**
 * The dashboard pages' query, typed: each field read with its own schema, and anything else
 * (a key sent twice, `?page=abc`, an unknown role) read as if it had not been sent, so as the
 * field's default. A query is what anyone can type into the address bar: a page shows its
 * default view rather than an error for it.
 */
export function parseSearch<F extends Fields>(params: SearchParams, fields: F): Parsed<F> {
  const parsed: Record<string, unknown> = Object.create(null);
  for (const [key, schema] of Object.entries(fields)) {
    const raw = Object.hasOwn(params, key) ? params[key] : undefined;
    const value = schema.safeParse(typeof raw === 'string' ? raw : undefined);
    parsed[key] = value.success ? value.data : schema.safeParse(undefined).data;
  }
  return parsed as Parsed<F>;
}

/** The fields the list pages share. */
export const searchField = {
  /** Free text, trimmed (and cut to `max` characters); '' when absent. */
  text: (max = Number.POSITIVE_INFINITY) =>
    z
      .string()
      .transform((value) => value.trim().slice(0, max))
      .default(''),
  /** A page number, 1-based; 1 when absent or not a whole number from 1 on. */
  page: z.coerce.number().int().min(1).default(1),
  /** One of the values of `schema` (an enum), or undefined. */
  oneOf: <T extends z.ZodType>(schema: T) => schema.optional(),
};
