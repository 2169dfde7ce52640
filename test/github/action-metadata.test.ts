// action.yml, setup/action.yml and comment/action.yml against the code that reads them: every
// input maps 1:1 onto the config overrides or an input the code reads, each description ends with
// its default, the outputs are the ones the code sets, and docs/action.md's
// tables list them (test/docs/generated-fresh.test.ts checks the page is fresh).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { OVERRIDES } from '../../src/config/overrides.ts';
import { actionInputNames, COMMENT_INPUT, OUTPUT, SETUP_INPUT } from '../../src/github/inputs.ts';
import { MODE_VARIABLE } from '../../src/github/main.ts';
// @ts-expect-error: a plain .mjs build script without type declarations
import { renderActionTables } from '../../scripts/docs-reference.mjs';

const ROOT = resolve(import.meta.dirname, '..', '..');
type Spec = { description: string; default?: string; required?: boolean };
interface ActionYaml {
  name: string;
  description: string;
  branding?: { icon: string; color: string };
  inputs: Record<string, Spec>;
  outputs: Record<string, { description: string; value?: string }>;
  runs: { using: string; main?: string; post?: string; steps?: { env?: Record<string, string>; run?: string; id?: string }[] };
}
const read = (file: string) => parse(readFileSync(join(ROOT, file), 'utf8')) as ActionYaml;

test('action.yml: one input per override row plus config, ab-base-config, ab-head-image, ab-base-image, kubeconfig, token, working-directory, publish-results', () => {
  const action = read('action.yml');
  assert.deepEqual(Object.keys(action.inputs), actionInputNames());
  for (const override of OVERRIDES) {
    const spec = action.inputs[override.input]!;
    assert.ok(
      spec.description.startsWith(override.description),
      `input ${override.input}: description starts with the override table's "${override.description}"`,
    );
    assert.equal(spec.default, '', `input ${override.input}: empty default, so the config file decides`);
  }
  for (const [name, spec] of Object.entries(action.inputs)) {
    const last = spec.description
      .trim()
      .split(/(?<=\.)\s+(?=[A-Z])/)
      .at(-1)!;
    assert.match(last, /^Default /, `input ${name}: the description ends with its default ("${last}")`);
    assert.notEqual(spec.required, true, `input ${name}: the runner does not enforce required; the code validates`);
  }
  assert.equal(action.inputs.token!.default, '${{ github.token }}');
});

test('action.yml: outputs are the ones the code sets; node24 with main and post; branding', () => {
  const action = read('action.yml');
  assert.deepEqual(Object.keys(action.outputs).sort(), Object.values(OUTPUT).sort());
  assert.deepEqual([action.runs.using, action.runs.main, action.runs.post], ['node24', 'dist/action.js', 'dist/post.js']);
  const colors = ['white', 'black', 'yellow', 'blue', 'green', 'orange', 'red', 'purple', 'gray-dark'];
  assert.ok(action.branding && colors.includes(action.branding.color) && /^[a-z0-9-]+$/.test(action.branding.icon));
});

test('the sub-actions are node24 actions running their own bundle entry, and declare the inputs the code reads', () => {
  // Not composite steps calling `node`: those ran whatever node was on PATH (none in many
  // container images); a node24 action runs on the runner's own Node.
  const cases: [string, string, Record<string, string>][] = [
    ['comment/action.yml', 'comment', COMMENT_INPUT],
    ['setup/action.yml', 'setup', SETUP_INPUT],
  ];
  for (const [file, entry, names] of cases) {
    const action = read(file);
    assert.deepEqual([action.runs.using, action.runs.main, action.runs.steps], ['node24', `../dist/${entry}.js`, undefined], file);
    const source = readFileSync(join(ROOT, 'src', `${entry}-action.ts`), 'utf8');
    assert.match(source, new RegExp(`\\[MODE_VARIABLE\\]: '${entry}'`), `src/${entry}-action.ts runs the ${entry} mode`);
    assert.match(
      readFileSync(join(ROOT, 'scripts/build.mjs'), 'utf8'),
      new RegExp(`${entry}: 'src/${entry}-action.ts'`),
      `scripts/build.mjs bundles dist/${entry}.js`,
    );
    for (const name of Object.values(names)) assert.ok(name in action.inputs, `${file} declares input ${name}`);
    for (const [name, spec] of Object.entries(action.inputs))
      assert.match(spec.description, /Default |Required\.$/, `${file} input ${name} states its default`);
    for (const [name, spec] of Object.entries(action.outputs))
      assert.equal(spec.value, undefined, `${file} output ${name}: set by the code, no value expression`);
  }
  assert.equal(typeof MODE_VARIABLE, 'string');
});

test("docs/action.md's inputs table lists every input the code reads", () => {
  const tables = renderActionTables(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: string; outputs: string };
  for (const name of actionInputNames()) assert.ok(tables.inputs.includes(`| \`${name}\` |`), `inputs table lists ${name}`);
  for (const name of Object.values(OUTPUT)) assert.ok(tables.outputs.includes(`| \`${name}\` |`), `outputs table lists ${name}`);
});
