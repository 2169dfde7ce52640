// The post step deletes a kind cluster only when this run created it: a cluster named like ours
// that already existed (kind's platform reuses it and leaves it in place) is never recorded for
// deletion, and one this run created is recorded until its own teardown removed it. runBenchmark
// runs in-process with the runner's state file; the pipeline is replaced by a stand-in that
// reports what a kind platform would report, then dies as a cancelled run does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { parseFileCommands, runnerFiles } from './harness.ts';
import { CLEANUP_STATE, type CleanupItem } from '../../src/github/cleanup.ts';
import { runBenchmark } from '../../src/github/run-benchmark.ts';
import type { PipelineDeps } from '../../src/pipeline.ts';

async function leftForPost(report: (lifecycle: NonNullable<PipelineDeps['lifecycle']>) => void): Promise<CleanupItem[]> {
  const files = await runnerFiles('kind-cleanup');
  const saved = { ...process.env };
  const cwd = process.cwd();
  Object.assign(process.env, {
    GITHUB_STATE: files.state,
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_EVENT_NAME: 'workflow_dispatch',
    GITHUB_EVENT_PATH: files.event,
    GITHUB_WORKSPACE: files.dir,
    RUNNER_TEMP: files.dir,
    INPUT_PLATFORM: 'kind',
    INPUT_MODES: 'baseline,istio-sidecar',
    INPUT_RATE: '10',
  });
  try {
    await import('node:fs/promises').then((fs) => fs.writeFile(files.event, '{}'));
    await assert.rejects(
      runBenchmark(process.env, {
        openStore: () => undefined,
        runPipeline: async (_config, deps) => {
          assert.ok(deps.lifecycle, 'the action passes a lifecycle to the pipeline');
          report(deps.lifecycle);
          throw new Error('cancelled');
        },
      }),
      /cancelled/,
    );
    return JSON.parse(parseFileCommands(await readFile(files.state, 'utf8'))[CLEANUP_STATE] ?? '[]') as CleanupItem[];
  } finally {
    process.chdir(cwd);
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
}

test('a reused kind cluster is never recorded for the post step to delete', async () => {
  assert.deepEqual(await leftForPost(() => {}), []);
});

test('a cluster this run created is recorded until its teardown removed it', async () => {
  const created = await leftForPost((l) => l.created({ kind: 'kind-cluster', name: 'mesh-perf' }));
  assert.equal(created.length, 1);
  assert.equal(created[0]!.kind, 'command');
  assert.deepEqual((created[0] as { argv: string[] }).argv.slice(1), ['delete', 'cluster', '--name', 'mesh-perf']);
  assert.deepEqual(
    await leftForPost((l) => {
      l.created({ kind: 'kind-cluster', name: 'mesh-perf' });
      l.removed({ kind: 'kind-cluster', name: 'mesh-perf' });
    }),
    [],
  );
});
