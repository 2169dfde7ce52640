// Every count and size the config can hold has an upper bound (src/config/limits.ts), read from
// the generated JSON Schema so a new field without one fails here: strings a maxLength, lists
// maxItems, maps maxProperties, numbers a maximum.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { schemaNodes, typeOf } from '../support/schema-walk.ts';
import { formatPath } from '../../src/config/validate.ts';

test('every string, list, map and number in the config schema has an upper bound', () => {
  const unbounded: string[] = [];
  for (const { path, schema } of schemaNodes()) {
    const at = formatPath(path.map((p) => (p === '*' ? '<key>' : p))) || '(top level)';
    const type = typeOf(schema);
    if (schema.enum || schema.const !== undefined) continue;
    if (type === 'string' && schema.maxLength === undefined) unbounded.push(`${at}: string without maxLength`);
    if (type === 'array' && schema.maxItems === undefined) unbounded.push(`${at}: list without maxItems`);
    if ((type === 'number' || type === 'integer') && schema.maximum === undefined && schema.exclusiveMaximum === undefined)
      unbounded.push(`${at}: number without maximum`);
    if (type === 'object' && typeof schema.additionalProperties === 'object' && schema.maxProperties === undefined)
      unbounded.push(`${at}: map without maxProperties`);
  }
  assert.deepEqual(unbounded, []);
});

test('the walk sees the whole schema (a walk that found nothing would pass above)', () => {
  const paths = schemaNodes().map((n) => formatPath(n.path));
  for (const expected of ['load.repetitions', 'load[0].vus', 'modes[0].env.*', 'gates.thresholds[0]', 'kubernetes.images.echo']) {
    assert.ok(paths.includes(expected), `${expected} in ${paths.length} paths`);
  }
  assert.ok(paths.length > 100, String(paths.length));
});
