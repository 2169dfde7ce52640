// A node:test reporter for scripts/test.mjs: one JSON line per finished test (file, name, nesting,
// duration, passed), written beside the spec reporter's output so the script can name the slowest
// tests and each file's time once the tier ends. Not meant to be read by people.
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
    })}\n`;
  }
}
