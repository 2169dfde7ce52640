// A node:test reporter for scripts/test.mjs: one JSON line per finished test (file, name, nesting,
// duration, passed, and a failure's message), written beside the spec reporter's output so the
// script can name the slowest tests, each file's time and every failure with its reason once the
// tiers end. Not meant to be read by people.
import { relative } from 'node:path';
import { sourceOfBundle } from './bundle-unit-tests.mjs';

export default async function* durations(source) {
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { name, nesting, file, details } = event.data;
    yield `${JSON.stringify({
      file: file ? relative(process.cwd(), sourceOfBundle(file)) : undefined,
      name,
      nesting,
      ms: details?.duration_ms ?? 0,
      passed: event.type === 'test:pass',
      ...(event.type === 'test:fail' ? { error: failureText(details?.error) } : {}),
    })}\n`;
  }
}

/** A failure's message, unwrapped from node:test's wrapper (the assertion or thrown error is its cause), bounded. */
function failureText(error) {
  const cause = error?.cause ?? error;
  const text = cause instanceof Error ? cause.message : String(cause ?? 'no error');
  return text.length > 1500 ? `${text.slice(0, 1500)}…` : text;
}
