// docs/configuration.md's list of every key and docs/action.md's inputs/outputs tables are rendered
// from the sources (scripts/docs-reference.mjs): the zod configuration schema, action.yml, the
// sub-actions' action.yml, the reusable workflows and the callers in workflows/. A changed schema
// or action.yml without `npm run build` leaves a committed page that differs from the rendering,
// and this fails, naming the command. In-process and fast: the unit tier runs it on every change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { configSchema } from '../../src/config/schema.ts';
// @ts-expect-error: plain .mjs build scripts without type declarations
import { generatedDocs, renderConfigReference, replacePart } from '../../scripts/docs-reference.mjs';
// @ts-expect-error: plain .mjs build scripts without type declarations
import { CONFIG_SCHEMA_ID, CONFIG_SCHEMA_TITLE, toJsonSchema } from '../../scripts/json-schema.mjs';

const ROOT = resolve(import.meta.dirname, '..', '..');
type JsonNode = {
  description?: string;
  properties?: Record<string, JsonNode>;
  items?: JsonNode;
  anyOf?: JsonNode[];
  additionalProperties?: JsonNode | boolean;
};
const jsonSchema = () => toJsonSchema(z, configSchema, CONFIG_SCHEMA_ID, CONFIG_SCHEMA_TITLE) as JsonNode;
const render = (root: string) => generatedDocs(root, jsonSchema()) as Record<string, string>;

test('the generated reference in docs/ is fresh: run `npm run build` and commit', () => {
  for (const [page, expected] of Object.entries(render(ROOT)))
    assert.ok(
      readFileSync(join(ROOT, page), 'utf8') === expected,
      `${page} differs from what its sources render: run \`npm run build\` (scripts/docs-reference.mjs) and commit it`,
    );
});

test('the freshness check sees a changed action.yml, a changed sub-action and a changed reusable workflow', () => {
  const dir = mkdtempSync(join(tmpdir(), 'docs-fresh-'));
  try {
    for (const path of ['docs', 'README.md', 'action.yml', 'setup', 'comment', '.github/workflows', 'workflows'])
      cpSync(join(ROOT, path), join(dir, path), { recursive: true });
    const before = render(dir)['docs/action.md']!;
    const edit = (file: string, from: RegExp, to: string) => {
      const text = readFileSync(join(dir, file), 'utf8');
      assert.match(text, from);
      writeFileSync(join(dir, file), text.replace(from, to));
    };
    edit('action.yml', /description: Path of the mesh-perf YAML config/, 'description: CHANGED-ACTION Path of the mesh-perf YAML config');
    edit('setup/action.yml', /(\n {4}description: )/, '$1CHANGED-SETUP ');
    edit('.github/workflows/mesh-perf.yml', /(\n {8}description: )/, '$1CHANGED-WORKFLOW ');
    const after = render(dir)['docs/action.md']!;
    assert.notEqual(after, before);
    for (const mark of ['CHANGED-ACTION', 'CHANGED-SETUP', 'CHANGED-WORKFLOW']) assert.ok(after.includes(mark), mark);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the configuration reference follows the schema: a new key, a changed default or description shows', () => {
  const schema = structuredClone(jsonSchema()) as JsonNode & { properties: Record<string, JsonNode & { default?: unknown }> };
  const before = renderConfigReference(schema) as string;
  schema.properties.suite!.default = 'nightly';
  schema.properties.calibrate!.description = 'a changed description';
  schema.properties.newKey = { type: 'string', description: 'a key added to the schema' } as JsonNode;
  const after = renderConfigReference(schema) as string;
  assert.notEqual(after, before);
  assert.match(after, /\| `suite` \| string \| `nightly` \|/);
  assert.match(after, /\| `calibrate` \| boolean \| `false` \| a changed description \|/);
  assert.match(after, /\| `newKey` \| string \| {2}\| a key added to the schema \|/);
  assert.throws(
    () => replacePart('# no markers\n', 'config-reference', after, 'docs/configuration.md'),
    /needs the markers <!-- config-reference:start -->/,
  );
});

test('every configuration key has a description (the reference shows it beside the key)', () => {
  const missing: string[] = [];
  const walk = (node: JsonNode, path: string) => {
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      const described = child.description ?? child.anyOf?.find((a) => a.description)?.description;
      if (!described) missing.push(`${path}${key}`);
      walk(child, `${path}${key}.`);
    }
    if (node.items) walk(node.items, path.replace(/\.$/, '[].'));
    for (const alternative of node.anyOf ?? []) walk(alternative, path);
  };
  walk(jsonSchema(), '');
  assert.deepEqual([...new Set(missing)], [], 'add .describe() to these keys in src/config/');
});
