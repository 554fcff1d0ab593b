import { z } from 'zod';

/**
 * The kinds of value a setting holds, each read from the raw environment string. Blank counts
 * as unset everywhere: `.env.example` lines left empty (`NAME=`) must not break start-up.
 */
export const blank = (raw: unknown) =>
  typeof raw === 'string' && raw.trim() === '' ? undefined : raw;

/** Free text; unset is `undefined`. */
export const text = () =>
  z.preprocess(
    blank,
    z
      .string()
      .transform((raw) => raw.trim())
      .optional(),
  );

/** Text with a default. */
export const textOr = (fallback: string) =>
  z.preprocess(
    blank,
    z
      .string()
      .transform((raw) => raw.trim())
      .default(fallback),
  );

/** `true` or `false`, with a default. */
export const flag = (name: string, fallback: boolean) =>
  z.preprocess(
    blank,
    z
      .enum(['true', 'false'], { message: `${name} must be true or false.` })
      .transform((raw) => raw === 'true')
      .default(fallback),
  );

/** One of a few words, with a default. */
export const oneOf = <const T extends readonly [string, ...string[]]>(
  name: string,
  words: T,
  fallback: T[number],
) =>
  z.preprocess(
    blank,
    z.enum(words, { message: `${name} must be one of ${words.join(', ')}.` }).default(fallback),
  );

/** A whole number in a range, with a default; `message` names the setting. */
export const whole = (opts: { min: number; max: number; fallback: number; message: string }) =>
  z.preprocess(
    blank,
    z
      .string()
      .regex(/^\s*\d+\s*$/, opts.message)
      .transform(Number)
      .pipe(z.number().int().min(opts.min, opts.message).max(opts.max, opts.message))
      .default(opts.fallback),
  );

/** A URL with one of `schemes`; unset is `undefined`. */
export const url = (schemes: readonly string[], message: string) =>
  z.preprocess(
    blank,
    z
      .string()
      .trim()
      .refine(
        (raw) => URL.canParse(raw) && schemes.includes(new URL(raw).protocol.slice(0, -1)),
        message,
      )
      .optional(),
  );

/** A whole number from `min` to `max`, with a default, in the words every such setting uses. */
export const wholeIn = (name: string, min: number, max: number, fallback: number) =>
  whole({ min, max, fallback, message: `${name} must be an integer from ${min} to ${max}.` });

/** A number of days above 0 (fractions allowed), at most `max`, with a default. */
export const days = (message: string, max: number, fallback: number) =>
  z.preprocess(
    blank,
    z
      .string()
      .trim()
      .regex(/^\d+(\.\d+)?$/, message)
      .transform(Number)
      .pipe(z.number().gt(0, message).max(max, message))
      .default(fallback),
  );
