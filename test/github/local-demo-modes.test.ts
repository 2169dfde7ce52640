// `platform: local` in the action with no modes anywhere (no config file, no modes input) runs the
// demo's two modes, as `mesh-perf demo` does, instead of failing on "modes: expected at least one".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/load.ts';
import { DEMO_CONFIG } from '../../src/cli/commands/demo.ts';
import { runAction, runnerFiles } from './harness.ts';

test('the action loads the demo modes for platform local without modes; a config with modes keeps its own', async () => {
  const config = await loadConfig({ overrides: { platform: 'local', rate: '50' }, overrideOrigin: 'input', localDemoModes: true });
  assert.deepEqual(
    config.modes.map((m) => m.name),
    DEMO_CONFIG.modes.map((m) => m.name),
  );
  assert.equal(config.profiles[0]!.rate, 50);
  // Nothing but the platform: the demo's load too.
  const bare = await loadConfig({ overrides: { platform: 'local' }, overrideOrigin: 'input', localDemoModes: true });
  assert.deepEqual([bare.modes.length, bare.profiles[0]!.rate], [2, DEMO_CONFIG.load.rate]);
  const own = await loadConfig({
    overrides: { platform: 'local', modes: '[{name: solo}]', rate: '10' },
    overrideOrigin: 'input',
    localDemoModes: true,
  });
  assert.deepEqual(
    own.modes.map((m) => m.name),
    ['solo'],
  );
  // Other platforms still need their modes named.
  await assert.rejects(loadConfig({ overrides: { platform: 'kind' }, overrideOrigin: 'input', localDemoModes: true }), /modes/);
});

test('the action with only platform: local measures direct and one-proxy-hop', { timeout: 180_000 }, async () => {
  const files = await runnerFiles('local-demo-modes');
  try {
    const ws = join(files.dir, 'workspace');
    await mkdir(ws);
    const history = join(files.dir, 'history.git');
    execFileSync('git', ['init', '--quiet', '--bare', history]);
    const run = await runAction({
      files,
      eventName: 'workflow_dispatch',
      payload: { repository: { full_name: 'octo/mesh', default_branch: 'main' } },
      inputs: { platform: 'local', rate: '20', duration: '2s', repetitions: '1', 'history-store': history, token: 'x' },
      env: { GITHUB_REPOSITORY: 'octo/mesh', GITHUB_REF: 'refs/heads/main', GITHUB_WORKSPACE: ws, GITHUB_API_URL: 'http://127.0.0.1:9' },
    });
    assert.notEqual(run.code, 2, `a usage error: ${run.stdout}${run.stderr}`);
    const results = JSON.parse(await readFile(run.outputs['results-path']!, 'utf8')) as { modes: { name: string }[] };
    assert.deepEqual([...new Set(results.modes.map((m) => m.name))], ['direct', 'one-proxy-hop']);
  } finally {
    await rm(files.dir, { recursive: true, force: true });
  }
});
