// workflows/daily.yml with a planted step, run by a real workflow engine (act) with
// `org/mesh-perf-action@v1` served from a local git server where v1 is this build: the caller's
// history branch already holds daily runs (real runs on this machine) of the delay before the step
// and two after it; the scheduled run adds the third, its publish raises the change point and waits
// (confirm.changePoints: required), the confirm job (mesh-perf-confirm.yml, read-only) runs the two
// runs' settings side by side and confirms the step naming the delay, and the record job
// (mesh-perf-publish.yml with the confirmation's artifact) stores the verdict with the change point
// and fails the change-point gate that waited for it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { parse } from 'yaml';
import { validateConfig } from '../../src/config/validate.ts';
import { GitBranchStore } from '../../src/history/git/git-branch-store.ts';
import { runPipeline } from '../../src/pipeline.ts';
import { loadChartJsSource } from '../../src/report/html/chartjs-source.ts';
import { silentLogger } from '../../src/util/log.ts';
import { startGitHubApi, type GitHubApi } from '../support/github-api.ts';
import { ACT, artifactFiles, CALLER_REPO, createCaller, createWorld, runAct, tail, workflowText, type World } from './act/harness.ts';

const TOKEN = 'ghs_actconfirm0123456789';
let world: World;
let api: GitHubApi;

before(async () => {
  assert.ok(existsSync(ACT), `act is not at ${ACT}: run bash scripts/install-test-tools.sh act`);
  world = await createWorld('confirm');
  api = await startGitHubApi({
    tokens: { [TOKEN]: { login: 'github-actions[bot]', type: 'Bot', write: true } },
    repositories: { [CALLER_REPO]: { defaultBranch: 'main' } },
  });
});

after(async () => {
  await api?.close();
  await world?.close();
});

const config = (delay: string) => `suite: daily
platform: local
modes:
  - name: svc
    local: { delay: ${delay} }
load: { rate: 100, duration: 1s, warmup: 0s, repetitions: 2, expectedLatency: 200ms }
gates: { regression: { enabled: false }, changePoint: fail }
confirm: { changePoints: required, duration: 1s, warmup: 0s }
`;

/** The days before today's run: eight at 10 ms, then two at 14 ms, measured now and dated back. */
async function seedHistory(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'act-confirm-seed-'));
  try {
    const store = new GitBranchStore({ url: world.callerBare, branch: 'gh-pages', chartJs: loadChartJsSource });
    const runs = [];
    for (let day = 0; day < 10; day++) {
      const delay = day < 8 ? '10ms' : '14ms';
      const { result } = await runPipeline(
        validateConfig({ ...(parse(config(delay)) as Record<string, unknown>), out: join(dir, String(day)) }),
        {
          log: silentLogger,
          signal: new AbortController().signal,
          cwd: dir,
          git: { branch: 'main', event: 'schedule', repository: CALLER_REPO, sha: (day + 1).toString(16).padStart(40, '0') },
        },
      );
      const startedAt = new Date(Date.now() - (10 - day) * 86_400_000).toISOString();
      runs.push({ ...result, run: { ...result.run, startedAt, finishedAt: startedAt } });
    }
    await store.publish(runs);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('workflows/daily.yml: a planted step is raised, confirmed naming its setting, recorded, and fails the gate that waited', {
  timeout: 900_000,
}, async () => {
  await seedHistory();
  const caller = await createCaller(world, 'daily-confirm', {
    'mesh-perf.yaml': config('14ms'),
    '.github/workflows/daily.yml': await workflowText('workflows/daily.yml'),
  });
  const run = await runAct({
    world,
    caller,
    workflow: 'daily.yml',
    event: 'schedule',
    payload: { schedule: '17 3 * * *' },
    token: TOKEN,
    apiUrl: api.url,
    runId: 521,
    timeoutMs: 800_000,
  });
  const log = tail(run.output, 150);
  // The publish raised the step and waited; the confirm job confirmed it; the record job failed the gate.
  assert.match(run.output, /new change point \(slower\), awaiting its confirmation: 100rps · svc · p50 on main/, log);
  assert.match(run.output, /confirmed: local\.delay 10ms → 14ms moved 100rps · svc · p50 by \+\d+\.\d+%/, log);
  assert.match(run.output, /change-point gate failed on its confirmation/, log);
  assert.notEqual(run.code, 0, log);
  assert.ok(
    (await artifactFiles(world, 521)).includes('mesh-perf-confirmation/confirmation.json'),
    (await artifactFiles(world, 521)).join('\n'),
  );
  // The verdict is on the history branch, with its change point.
  const show = (path: string) => execFileSync('git', ['--git-dir', world.callerBare, 'show', `gh-pages:${path}`], { encoding: 'utf8' });
  assert.match(show('runs/daily/confirmations.daily.js'), /"verdict":"confirmed"/);
  assert.match(show('runs/daily/change-points.daily.js'), /"confirmation":\{"verdict":"confirmed"/);
});
