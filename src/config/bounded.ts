// Schema building blocks with their bounds (src/config/limits.ts) built in, so a new field gets a
// limit by being written the usual way; test/config/bounds.test.ts walks the generated JSON
// Schema and fails on any string, list, map or number left without one.
import { z } from 'zod';
import { parseDurationMs } from './duration.ts';
import { formatLimit, LIMITS } from './limits.ts';
import { quote } from '../util/quote.ts';

const lengthOf = (input: unknown) => (typeof input === 'string' ? formatLimit(input.length) : 'more');

/**
 * A string of at most `max` characters. The length is checked first and stops the field's other
 * checks (abort), so no pattern ever runs over a megabyte of text.
 */
export const text = (what: string, max: number = LIMITS.text) =>
  z
    // Only the type's own message: a check's message (startsWith, regex) stays the check's.
    .string({
      error: (issue) => (issue.code === 'invalid_type' ? `expected a string for ${what}, got ${describeValue(issue.input)}` : undefined),
    })
    .max(max, {
      abort: true,
      error: (issue) => `expected at most ${formatLimit(max)} characters for ${what}, got ${lengthOf(issue.input)}`,
    });

/** A map of strings (env, headers, labels, --set values), bounded in entries and in each key and value. */
export const stringMap = (what: string, maxEntries: number = LIMITS.entries) =>
  z
    .record(text(`a key of ${what}`), text(`a value of ${what}`))
    .refine((map) => Object.keys(map).length <= maxEntries, {
      error: (issue) =>
        `expected at most ${formatLimit(maxEntries)} entries in ${what}, got ${formatLimit(Object.keys(issue.input as object).length)}`,
    })
    .meta({ maxProperties: maxEntries });

/** At most `max` items, with the limit and the count in the message. */
export const tooMany = (what: string, max: number) => ({
  error: (issue: { input?: unknown }) =>
    `expected at most ${formatLimit(max)} ${what}, got ${Array.isArray(issue.input) ? formatLimit(issue.input.length) : 'more'}`,
});

/** A number's upper bound, with the limit and the value in the message. */
export const atMost = (what: string, max: number, why = '') => ({
  error: (issue: { input?: unknown }) => `expected ${what} ≤ ${formatLimit(max)}${why}, got ${String(issue.input)}`,
});

/** A value as an error message shows it; long strings are cut (src/util/quote.ts). */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return quote(value);
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  // A number or a boolean as it was written: "got 9", "got true".
  return String(value);
}

/** A duration of at most 7 days, k6 style ("10s", "500ms", "1m30s"). */
export const duration = (what: string) =>
  z
    .string({ error: `expected a duration for ${what} such as "10s", "500ms" or "1m30s"` })
    .max(40, { abort: true, error: (issue) => `expected a duration such as "10s" for ${what}, got ${describeValue(issue.input)}` })
    .refine((text) => parseDurationMs(text) !== undefined, {
      abort: true,
      error: (issue) => `expected a duration with a unit such as "10s", "500ms" or "1m30s", got ${describeValue(issue.input)}`,
    })
    .refine((text) => parseDurationMs(text)! <= LIMITS.durationMs, {
      error: (issue) =>
        `expected ${what} of at most 7 days (${formatLimit(LIMITS.durationMs / 3_600_000)}h), got ${describeValue(issue.input)}`,
    })
    .describe(`${what} (k6 style: "10s", "500ms", "1m30s")`);
