// `mesh-perf presets` through the real CLI entry (argument parsing, registry, exit code).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withColumns } from '../support/cli.ts';
import { main } from '../../src/cli/main.ts';
import { PRESETS } from '../../src/presets/index.ts';
import { silentLogger } from '../../src/util/log.ts';

// Whole lines are read here (1000 columns); at a narrow terminal the description wraps below
// (test/cli/fits-columns.test.ts).
async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await withColumns(1000, () =>
    main(argv, {
      stdout: (t) => (stdout += t),
      stderr: (t) => (stderr += t),
      log: silentLogger,
      cwd: process.cwd(),
      signal: new AbortController().signal,
    }),
  );
  return { code, stdout, stderr };
}

test('mesh-perf presets prints one line per preset with source benchmark, trials and estimate', async () => {
  const { code, stdout } = await cli(['presets']);
  assert.equal(code, 0);
  const lines = stdout.trimEnd().split('\n');
  assert.equal(lines.length, PRESETS.length);
  PRESETS.forEach((preset, i) => {
    assert.ok(lines[i]!.startsWith(preset.name), lines[i]);
    assert.match(lines[i]!, new RegExp(`source ${preset.source} +\\d+ trials +~\\S+`));
    assert.ok(lines[i]!.endsWith(preset.summary));
  });
});

test('mesh-perf presets --json lists trials and estimates', async () => {
  const { code, stdout } = await cli(['presets', '--json']);
  assert.equal(code, 0);
  const parsed = JSON.parse(stdout) as { name: string; trials: number; estimateSeconds: number }[];
  assert.deepEqual(
    parsed.map((p) => p.name),
    PRESETS.map((p) => p.name),
  );
  assert.equal(parsed.find((p) => p.name === 'istio-linkerd-fortio')!.trials, 60);
});

test('mesh-perf presets rejects a stray argument with exit 2', async () => {
  const { code, stderr } = await cli(['presets', '--bogus']);
  assert.equal(code, 2);
  assert.match(stderr, /bogus/);
});
