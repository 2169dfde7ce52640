// Errors at an 80-column terminal: config problems wrapped to the width, each problem's field on
// its first line, continuation lines indented under the text, quoted values kept whole.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { main } from '../../src/cli/main.ts';
import { errorText } from '../../src/cli/error-text.ts';
import { silentLogger } from '../../src/util/log.ts';
import { withTempDir } from '../support/cli.ts';

async function stderrOf(args: string[], cwd: string): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const code = await main(args, {
    stdout: () => undefined,
    stderr: (t) => void (stderr += t),
    log: silentLogger,
    cwd,
    signal: new AbortController().signal,
  });
  return { code, stderr };
}

test('config problems at COLUMNS=80: every line fits, the field starts its problem, continuations indented', async () => {
  const before = process.env.COLUMNS;
  process.env.COLUMNS = '80';
  try {
    await withTempDir(async (dir) => {
      await writeFile(
        join(dir, 'mesh-perf.yaml'),
        'modes: [{ name: a, local: { hops: 1, jitter: 5 } }]\nload:\n  rate: 5\n  key0: v\n  key1: v\nrate: 5\n',
      );
      const { code, stderr } = await stderrOf(['plan'], dir);
      assert.equal(code, 2);
      const lines = stderr.trim().split('\n');
      for (const line of lines) assert.ok(line.length <= 80, `${line.length} columns: ${line}`);
      assert.equal(lines[0], 'mesh-perf plan: mesh-perf.yaml has 3 problems:');
      const starts = lines.filter((l) => l.startsWith('  - '));
      assert.deepEqual(
        starts.map((l) => /^ {2}- ([^:]+):/.exec(l)?.[1]),
        ['modes[0].local.jitter', 'load', '(top level)'],
      );
      for (const line of lines.slice(1)) assert.match(line, /^( {2}- | {4}\S)/, `continuation indented under the text: ${line}`);
      assert.ok(lines.length > starts.length + 1, 'long problems did wrap');
      assert.ok(
        lines.some((l) => l.includes('"10s", "500ms" or "1m30s", got 5')),
        'the value seen is on a line with what was expected',
      );
      // Nothing lost: unwrapped, the problems read as the message did.
      const joined = stderr.trim().replace(/\n {4}/g, ' ');
      assert.match(
        joined,
        /- load: unknown key "key0"; unknown key "key1" \(expected one of: name, .* replicas, generators, pacer, engine\)/,
      );
      assert.match(joined, /- \(top level\): unknown key "rate"; did you mean "load\.rate"\?/);
    });
  } finally {
    if (before === undefined) delete process.env.COLUMNS;
    else process.env.COLUMNS = before;
  }
});

test('a quoted value is not split across lines when it fits; an unindented line continues indented', () => {
  const text = errorText(
    'mesh-perf run: f.yaml has a problem:\n  - load.script: does not exist: "./scripts/with spaces/in its name.js" (resolved from the folder of the config)',
    60,
  );
  const lines = text.split('\n');
  assert.ok(
    lines.some((l) => l.includes('"./scripts/with spaces/in its name.js"')),
    text,
  );
  for (const line of lines) assert.ok(line.length <= 60, line);
  const flood = errorText(`  - load: unknown keys ${Array.from({ length: 5 }, (_, i) => `"k${i}" (line ${i + 1000})`).join(', ')}`, 40);
  for (let i = 0; i < 5; i++)
    assert.ok(
      flood.split('\n').some((l) => l.includes(`"k${i}" (line ${i + 1000})`)),
      flood,
    );
  const long = errorText(
    `mesh-perf report: --store ${'x'.repeat(10)}: no such folder; pass the folder or git URL of an existing history store`,
    40,
  );
  assert.match(long, /^mesh-perf report: --store xxxxxxxxxx: no\n {2}such/);
});

test('a command to copy (a line indented by four) is never wrapped, whatever the width', async () => {
  const { installHint } = await import('../../src/platform/kubernetes/k6-operator/version.ts');
  const shown = errorText(`mesh-perf run: the cluster has no TestRun CRD; ${installHint()}`, 80).split('\n');
  const kubectl = shown.find((l) => l.includes('kubectl apply'));
  assert.equal(kubectl, '    kubectl apply --server-side -f https://raw.githubusercontent.com/grafana/k6-operator/v1.6.0/bundle.yaml');
  assert.ok(
    shown.some((l) => /^ {4}helm install k6-operator grafana\/k6-operator --version \S+ -n k6-operator-system --create-namespace$/.test(l)),
  );
  // Prose still wraps at the width.
  for (const line of shown.filter((l) => !l.startsWith('    '))) assert.ok(line.length <= 80, line);
});
