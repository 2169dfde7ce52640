// An error that ends a run after it started is printed once: main() prints it in full with its
// exit code, and the table's verdict points there instead of repeating it (it used to say
// "run ended early: <the same error>" above "mesh-perf run: <the same error>").
// Real k6 and echo servers, main() in-process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { main } from '../../src/cli/main.ts';
import type { Logger } from '../../src/util/log.ts';
import { withTempDir } from '../support/cli.ts';

const count = (text: string, needle: string) => text.split(needle).length - 1;

async function run(cwd: string, controller = new AbortController(), onPhase?: (title: string) => void) {
  let out = '';
  const write = (text: string) => void (out += text);
  const log: Logger = {
    phase: (title) => {
      write(`\n▶ ${title}\n`);
      onPhase?.(title);
    },
    info: (m) => write(`  ${m}\n`),
    warn: (m) => write(`  warning: ${m}\n`),
    progress: () => undefined,
    progressDone: () => undefined,
  };
  const code = await main(['run', '--out', 'out'], { stdout: write, stderr: write, log, cwd, signal: controller.signal });
  return { code, out };
}

const CONFIG = (load: string) => `platform: local\nmodes:\n  - name: a\n    local: { hops: 0 }\nload: { ${load} }\n`;

test('a k6 script that fails at init: the error once, exit 2, the full reason kept in results and summary', {
  timeout: 60_000,
}, async () => {
  await withTempDir(async (dir) => {
    await writeFile(join(dir, 's.js'), 'export default function () {}\nthrow new Error("init failed in s.js");\n');
    await writeFile(join(dir, 'mesh-perf.yaml'), CONFIG('rate: 5, duration: 1s, warmup: 0s, repetitions: 1, script: ./s.js'));
    const { code, out } = await run(dir);
    assert.equal(code, 2, out);
    assert.equal(count(out, 'the k6 script failed'), 1, out);
    assert.equal(count(out, 'init failed in s.js'), 1, out);
    assert.match(out, /Verdict: INVALID:\n {2}- run ended early \(the error is printed below\)/);
    assert.match(out, /\nmesh-perf run: the k6 script failed \(mode "a", repetition 1, k6 exit code \d+\)/);
    const results = JSON.parse(await readFile(join(dir, 'out/results.json'), 'utf8'));
    assert.ok(
      results.verdictReasons.some((r: string) => r.startsWith('run ended early: the k6 script failed')),
      results.verdictReasons.join('\n'),
    );
    assert.match(await readFile(join(dir, 'out/summary.md'), 'utf8'), /run ended early: the k6 script failed/);
  });
});

test('cancelled while measuring: "cancelled" once, exit 3 (the CLI entry turns it into 130)', { timeout: 60_000 }, async () => {
  await withTempDir(async (dir) => {
    await writeFile(join(dir, 'mesh-perf.yaml'), CONFIG('rate: 20, duration: 5s, warmup: 0s, repetitions: 1'));
    const controller = new AbortController();
    const { code, out } = await run(dir, controller, (title) => {
      if (title.startsWith('Measuring')) setTimeout(() => controller.abort(), 1500);
    });
    assert.equal(code, 3, out);
    assert.equal(count(out, 'the run was cancelled'), 1, out);
    assert.match(out, /- run ended early \(the error is printed below\)/);
    assert.ok((await readdir(join(dir, 'out'))).includes('results.json'), 'partial results written');
  });
});
