import { AppError } from '@chorus/services';
import { isForbiddenKey, issuePath, safeRecord } from '@chorus/validators';
import type { ZodType } from 'zod';
import { reservedKey } from '../server/reserved-keys';
import { isIntegerDef, unwrap, type SchemaDef } from '../trpc/internals';

/*
 * Form bodies and query strings as the JSON the procedures take (docs/api.md), read the way
 * Stripe-style form APIs read them: `tags=a&tags=b` (or `tags[]=…`) is a list of values,
 * `settings[notifications]` a field of an object, `targets[0][channelId]` a field of a list's
 * first item, up to MAX_FORM_DEPTH brackets deep. The input schema says which values are numbers,
 * booleans or lists. A key the reader cannot place is refused (400 naming it), never dropped;
 * only a redirect route's query reads its schema's own keys and no other (`ownKeys`).
 * A list field's name alone with an empty value (`slots=`) is the empty list, as in Stripe's API.
 */

/** The most bracketed steps under a name: `targets[0][thread][0][mediaIds]` takes 4. */
const MAX_FORM_DEPTH = 8;

/** A list's item number: decimal digits, without a leading zero (`01` would be a second `1`). */
const INDEX = /^(?:0|[1-9]\d*)$/;

type Container = Record<string, unknown> | unknown[];
type Step = string | number;

/** What a value of this schema holds by name: an object's fields, or a record's keys. */
const hasKeys = (def: SchemaDef | undefined) => def?.shape !== undefined || def?.type === 'record';

/** The schema of what `step` holds inside a value of schema `def`, when the schema says. */
function childDef(def: SchemaDef | undefined, step: Step): SchemaDef | undefined {
  if (def?.type === 'array') return typeof step === 'number' ? unwrap(def.element) : undefined;
  if (def?.type === 'record') return unwrap(def.valueType);
  // Schema shapes are ordinary objects: look keys up as own properties only.
  return def?.shape && Object.hasOwn(def.shape, step) ? unwrap(def.shape[step]) : undefined;
}

/**
 * The input's list fields at any depth, as form keys with an item numbered 0 (`tags`,
 * `targets`, `targets[0][mediaIds]`): the fields a form gives as repeated keys or numbered items.
 */
export function formLists(schema: ZodType | undefined, prefix = ''): string[] {
  const fields: string[] = [];
  for (const [name, field] of Object.entries(unwrap(schema)?.shape ?? {})) {
    const key = prefix ? `${prefix}[${name}]` : name;
    const def = unwrap(field);
    if (def?.type === 'array') {
      fields.push(key);
      fields.push(...formLists(def.element, `${key}[0]`));
    } else if (def?.shape) fields.push(...formLists(field, key));
  }
  return fields;
}

/**
 * A number as a query or a form writes one: decimal digits and a sign; a fraction only where
 * the field is not an integer (`page=1.0` is no way to write a page). `Number` also reads
 * `0x10`, `1e3`, ` 2` and `Infinity`, which no list means as a page or a limit: those stay
 * text, and the schema refuses them (400 `validation_error`).
 */
const INTEGER = /^-?\d+$/;
const DECIMAL = /^-?\d+(?:\.\d+)?$/;

/**
 * A key's values as the field's type: a list field takes them all (none: the empty list); any
 * other field one (none: the empty string, as it was sent). A field of the input given more
 * than once (`limit=1&limit=2`) is refused, as the OAuth endpoints refuse a repeated
 * parameter: taking either value would guess at what the client meant. A key the input does
 * not name is dropped by the schema whatever it holds.
 */
function convertValue(path: Step[], values: string[], def: SchemaDef | undefined): unknown {
  if (def?.type === 'array') return values.map((v) => convertValue(path, [v], unwrap(def.element)));
  if (def !== undefined && values.length > 1) throw invalid(path, 'Given more than once.');
  const last = values[values.length - 1] ?? '';
  switch (def?.type) {
    case 'number':
      if (INTEGER.test(last)) return Number(last);
      if (!DECIMAL.test(last)) return last;
      // `2.5` and `1.0` alike: no way to write an integer, said as the schema says it.
      if (isIntegerDef(def)) throw invalid(path, 'Must be an integer.');
      return Number(last);
    case 'boolean':
      return last === 'true' ? true : last === 'false' ? false : last;
    default:
      return last;
  }
}

const invalid = (path: Step[] | string, message: string) =>
  new AppError('validation_error', 'The request is not valid.', {
    issues: [{ path: typeof path === 'string' ? issuePath([path]) : issuePath(path), message }],
  });

/** A key as sent, for an issue's path: cut short, a client may send a megabyte of it. */
const asSent = (key: string) => (key.length > 200 ? `${key.slice(0, 200)}…` : key);

const UNREADABLE =
  'Cannot be read as a field: each pair of brackets holds one name or item number (targets[0][channelId]), and [] only ends a key.';

/**
 * A key's steps (`targets[0][channelId]`: `targets`, `0`, `channelId`), its one trailing `[]`
 * already taken off. A reserved name anywhere is refused first, named by its path, as a JSON
 * body's is; then a key whose brackets do not read, and one nested deeper than MAX_FORM_DEPTH.
 */
function stepsOf(name: string, sent: string): string[] {
  const segments = name.split(/[[\]]+/).filter(Boolean);
  const reserved = segments.findIndex(isForbiddenKey);
  if (reserved !== -1) {
    const path = segments.slice(0, reserved + 1);
    throw reservedKey(path.map((s, i) => (i > 0 && INDEX.test(s) ? Number(s) : s)));
  }
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(name);
  const inner = [...(match?.[2] ?? '').matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1] ?? '');
  if (!match?.[1] || inner.includes('')) throw invalid(asSent(sent), UNREADABLE);
  if (inner.length > MAX_FORM_DEPTH)
    throw invalid(asSent(sent), `Nested deeper than ${MAX_FORM_DEPTH} levels.`);
  return [match[1], ...inner];
}

/**
 * Puts a key's values at its place in `out`, making the lists and objects on the way: a list
 * where the next step is an item number (and the schema does not say an object or a record
 * is there), an object on `Object.create(null)` otherwise. An item is numbered at most the
 * list's size so far (no sparse list from `a[99999999]`); a place that is already a value, or
 * the other kind of container, is refused.
 */
function place(
  out: Record<string, unknown>,
  steps: string[],
  values: string[],
  root: SchemaDef | undefined,
  emptied: WeakSet<Container>,
) {
  let container: Container = out;
  let def = root;
  const path: Step[] = [];
  for (const [i, text] of steps.entries()) {
    // In a list, a step is an item number: the list was made because it is one.
    const step: Step = Array.isArray(container) ? Number(text) : text;
    path.push(step);
    if (Array.isArray(container) && Number(step) > container.length)
      throw invalid(path, `Items are numbered from 0, in order: the next is ${container.length}.`);
    const existing = held(container, step);
    def = childDef(def, step);
    const next = steps[i + 1];
    if (next === undefined) {
      if (existing !== undefined)
        throw invalid(path, isContainer(existing) ? BOTH_VALUE_AND_KEYS : 'Given more than once.');
      const value = convertValue(path, values, def);
      // `slots=` said the list is empty: items of it after that contradict it, as before it.
      if (values.length === 0 && Array.isArray(value)) emptied.add(value);
      return put(container, text, value);
    }
    const wantsList = INDEX.test(next) && !hasKeys(def);
    if (existing === undefined) {
      const made: Container = wantsList ? [] : safeRecord<unknown>();
      put(container, text, made);
      container = made;
    } else if (!isContainer(existing) || emptied.has(existing)) {
      throw invalid(path, BOTH_VALUE_AND_KEYS);
    } else if (Array.isArray(existing) !== wantsList) {
      throw invalid(path, 'Given both as a list (numbered items) and as an object (named keys).');
    } else container = existing;
  }
}

const BOTH_VALUE_AND_KEYS = 'Given both as a value and with keys in brackets.';

/** What `container` holds at `step`: its own value only, never one inherited. */
const held = (container: Container, step: Step): unknown =>
  Array.isArray(container)
    ? container[Number(step)]
    : Object.hasOwn(container, step)
      ? container[step]
      : undefined;

const isContainer = (value: unknown): value is Container =>
  typeof value === 'object' && value !== null;

/** A list's next item (its number was checked), or an object's field. */
function put(container: Container, key: string, value: unknown) {
  if (Array.isArray(container)) container.push(value);
  else container[key] = value;
}

/**
 * A form-encoded body or a query string as the JSON the procedure expects (see the top of
 * this file): every key placed, or the request refused naming the first one that cannot be.
 */
export function formToJson(params: URLSearchParams, schema: ZodType | undefined) {
  const out = safeRecord<unknown>();
  // `tags` and `tags[]` are one field: their values are gathered before they are placed.
  const byName = new Map<string, { sent: string; values: string[] }>();
  for (const [key, value] of params) {
    const name = key.replace(/\[\]$/, '');
    const field = byName.get(name);
    if (field) field.values.push(value);
    else byName.set(name, { sent: key, values: [value] });
  }
  const root = unwrap(schema);
  const emptied = new WeakSet<Container>();
  for (const [name, { sent, values }] of byName) {
    // The name alone, once, empty (`slots=`): no values, the empty list where the field is one.
    // `slots[]=` stays one empty item, as `[]` names an item.
    const given = sent === name && values.length === 1 && values[0] === '' ? [] : values;
    place(out, stepsOf(name, sent), given, root, emptied);
  }
  return out;
}

/**
 * A redirect route's query, as its input reads it: only the keys its schema names, as sent
 * (`code`, `state`, `error`). A browser lands there from a third party, which may add keys of
 * its own: whatever they hold, the browser must be sent back, not shown a JSON refusal.
 */
export function ownKeys(params: URLSearchParams, schema: ZodType | undefined): URLSearchParams {
  const shape = unwrap(schema)?.shape ?? {};
  return new URLSearchParams([...params].filter(([key]) => Object.hasOwn(shape, key)));
}
