// Every mesh-perf.yaml example in README.md and docs/ is planned by `mesh-perf plan`, so an example
// a reader copies is one the tool accepts: a YAML block that is not a workflow (those are linted by
// actionlint in test/workflows/workflows.test.ts) must plan with exit 0. A block that is a part
// of a config by design (a few modes, the keys a section is about) says how it is completed, in an
// HTML comment on the line above its fence, which GitHub does not show:
//   <!-- example: completed with preset NAME -->
// The block then goes over `preset: NAME` the way a user's own fields do: a list is the config's
// `modes`, a mapping's keys replace the preset's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse, stringify } from 'yaml';
import { runCliInProcess } from '../support/cli.ts';
import { listening } from '../support/listening.ts';
import { documentationPages, yamlBlocks } from '../workflows/doc-examples.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const COMPLETED = /^<!-- example: completed with preset ([a-z0-9-]+) -->$/;

interface ConfigExample {
  where: string;
  text: string;
  preset?: string;
}

/** The config examples of a page: its YAML blocks that are not workflows, with how each is completed. */
export function configExamples(page: string, text: string): ConfigExample[] {
  const lines = text.split('\n');
  return yamlBlocks(text)
    .filter((b) => b.kind === 'other')
    .map((b) => {
      // b.line is the block's first line (1-based); the fence is above it, the marker above that.
      const marker = COMPLETED.exec(lines[b.line - 3]?.trim() ?? '');
      return { where: `${page}:${b.line}`, text: b.text, ...(marker ? { preset: marker[1]! } : {}) };
    });
}

/** The config file a reader would end up with. */
function completed(example: ConfigExample): string {
  if (!example.preset) return example.text;
  const part = parse(example.text) as unknown;
  const config = Array.isArray(part) ? { preset: example.preset, modes: part } : { preset: example.preset, ...(part as object) };
  return stringify(config);
}

const examples = documentationPages(ROOT).flatMap((page) => configExamples(page, readFileSync(join(ROOT, page), 'utf8')));

test('the documentation has config examples, whole ones and completed ones', () => {
  assert.ok(examples.filter((e) => !e.preset).length >= 4, examples.map((e) => e.where).join(', '));
  assert.ok(examples.some((e) => e.preset));
});

test('every config example in README and docs/ plans with `mesh-perf plan` (exit 0)', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'doc-config-examples-'));
  const failures: string[] = [];
  try {
    for (const example of examples) {
      writeFileSync(join(dir, 'mesh-perf.yaml'), completed(example));
      // plan checks that an example's endpoints answer, as run would: the reader's services are up.
      const services = await Promise.all(
        [...new Set([...example.text.matchAll(/\b127\.0\.0\.1:(\d+)/g)].map((m) => Number(m[1])))].map((port) => listening(port)),
      );
      const result = await runCliInProcess(['plan', '--config', 'mesh-perf.yaml'], { cwd: dir, columns: 100 }).finally(() =>
        Promise.all(services.map((s) => s.close())),
      );
      if (result.code !== 0)
        failures.push(
          `${example.where}${example.preset ? ` (with preset ${example.preset})` : ''}: exit ${result.code}\n${result.stderr}${result.stdout}`,
        );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.deepEqual(failures, []);
});

test('a marked part is completed from its preset; an unmarked part fails as a reader would see it fail', async () => {
  const page = '```yaml\nplatform: local\n```\n\n<!-- example: completed with preset ambient-modes -->\n```yaml\n- name: baseline\n```\n';
  const [whole, part] = configExamples('x.md', page);
  assert.equal(whole!.preset, undefined);
  assert.equal(part!.preset, 'ambient-modes');
  assert.deepEqual(parse(completed(part!)), { preset: 'ambient-modes', modes: [{ name: 'baseline' }] });
  const dir = mkdtempSync(join(tmpdir(), 'doc-config-examples-'));
  try {
    writeFileSync(join(dir, 'mesh-perf.yaml'), completed(whole!));
    const result = await runCliInProcess(['plan', '--config', 'mesh-perf.yaml'], { cwd: dir });
    assert.equal(result.code, 2, 'platform: local alone has no load rate');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
