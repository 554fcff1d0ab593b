import type { AnyProcedure, AnyRouter } from '@trpc/server';
import type { ZodType } from 'zod';
import type { Meta } from './init';

/*
 * The one adapter to tRPC's and zod's internals (`_def`, `def`): neither library exposes a
 * router's procedures with their meta and input schema, nor what a schema is once its
 * optional/default wrappers are stripped, which the REST door needs to route and to read forms.
 * A library upgrade that moves them breaks here, and only here.
 */

/** Every procedure of a router, by dotted name, with its kind, meta and first input schema. */
export function proceduresOf(router: AnyRouter) {
  const procedures = router._def.procedures as Record<string, AnyProcedure>;
  return Object.entries(procedures).map(([name, procedure]) => {
    const def = procedure._def as unknown as {
      type: 'query' | 'mutation' | 'subscription';
      meta?: Meta;
      inputs: ZodType[];
    };
    return { name, type: def.type, meta: def.meta, input: def.inputs[0] };
  });
}

/** What zod says a schema is (its `def`): the parts the REST door's form reading looks at. */
export type SchemaDef = {
  type: string;
  innerType?: ZodType;
  element?: ZodType;
  /** A record's values. */
  valueType?: ZodType;
  shape?: Record<string, ZodType>;
  in?: ZodType;
  out?: ZodType;
  /** A number's checks: `.int()` is the format `safeint`. */
  checks?: { _zod: { def: { format?: string } } }[];
};

/** zod's integer formats (`.int()`, `z.int32()`, `z.uint32()`). */
const INTEGER_FORMATS = new Set(['safeint', 'int32', 'uint32']);

/** Whether a number schema takes integers only. */
export const isIntegerDef = (def: SchemaDef | undefined) =>
  def?.checks?.some((check) => INTEGER_FORMATS.has(check._zod.def.format ?? '')) ?? false;

const defOf = (schema: ZodType | undefined) =>
  (schema as unknown as { def: SchemaDef } | undefined)?.def;

/**
 * Strips optional/default/nullable wrappers, and the pipes `.transform()` makes, to reach the
 * schema that says what a field is on the way in (tags are an array before they are deduped).
 */
export function unwrap(schema: ZodType | undefined): SchemaDef | undefined {
  let def = defOf(schema);
  for (;;) {
    if (def?.innerType) def = defOf(def.innerType);
    // `z.preprocess` pipes a transform into the schema: what comes in is the pipe's output.
    else if (def?.type === 'pipe')
      def = defOf(defOf(def.in)?.type === 'transform' ? def.out : def.in);
    else return def;
  }
}
