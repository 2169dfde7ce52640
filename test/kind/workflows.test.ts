// The copyable workflows as a user copies them (workflows/daily.yml and workflows/pr-gate.yml,
// unchanged), run by a real workflow engine (act) inside the kind tier's host with the user's
// mesh-perf.yaml on platform kind: the daily run creates the cluster, measures, publishes to the
// caller's gh-pages (a local bare repository) and deletes the cluster; the PR gate measures and
// comments through the recording GitHub API; a PR gate whose main step is killed mid-measure
// leaves the cluster to the action's post step, which deletes it, and nothing is left. act, the
// action and kind reach the host's dockerd by DOCKER_HOST; the API stand-in is relayed into the
// host's network (relay.ts). See ../workflows/act/harness.ts for what act runs and what stands in.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readlinkSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { stringify } from 'yaml';
import { isRunFile } from '../../src/history/layout.ts';
import { KIND_ACTIONS } from '../support/kind/actions/index.ts';
import { kindClusters, nodeContainers } from '../support/kind/cluster.ts';
import { downKindHost, KindHost, upKindHost } from '../support/kind/host.ts';
import { kindProductEnv, kindSettings } from '../support/kind/product.ts';
import { type Relay, relayIntoHost } from '../support/kind/relay.ts';
import { startGitHubApi, type GitHubApi } from '../support/github-api.ts';
import { commandLine } from '../support/real/processes.ts';
import {
  artifactFiles,
  CALLER_REPO,
  createCaller,
  createWorld,
  historyFiles,
  prPayload,
  runAct,
  tail,
  workflowText,
  type World,
} from '../workflows/act/harness.ts';

const TOKEN = 'ghs_kindworkflows0123456789';
/** What the action's log says once k6 measures in the cluster. */
const MEASURING = /measuring/i;
let host: KindHost;
let world: World;
let api: GitHubApi;
let relay: Relay;
const lines: string[] = [];
const log = (line: string) => {
  lines.push(line);
  if (process.env.MESH_PERF_KIND_VERBOSE) process.stderr.write(`${line}\n`);
};
const timings: Record<string, number> = {};

before(async () => {
  host = new KindHost(log);
  await upKindHost(KIND_ACTIONS, host);
  world = await createWorld('kind');
  api = await startGitHubApi({
    tokens: { [TOKEN]: { login: 'github-actions[bot]', type: 'Bot', write: true } },
    repositories: { [CALLER_REPO]: { defaultBranch: 'main', private: false } },
  });
  relay = await relayIntoHost(host, Number(new URL(api.url).port));
});

after(async () => {
  await relay?.close().catch(() => undefined);
  await api?.close();
  await world?.close();
  if (host?.record.init) await downKindHost(KIND_ACTIONS, host).catch((e: Error) => log(`down: ${e.message}`));
  log(`timings ${JSON.stringify(timings)}`);
  if (process.env.MESH_PERF_KIND_TIMINGS)
    await writeFile(`${process.env.MESH_PERF_KIND_TIMINGS}.workflows`, `${JSON.stringify({ timings, lines }, null, 2)}\n`);
});

/** The user's mesh-perf.yaml: the tier's kind settings, the baseline, a short load. */
const userConfig = (extra: Record<string, unknown> = {}) =>
  stringify({
    ...kindSettings(),
    modes: [{ name: 'baseline' }],
    load: { rate: 50, duration: '10s', warmup: '2s', repetitions: 1 },
    ...extra,
  });

/** What the workflow's steps need of the kind host: its dockerd, and this machine's builds of kind, istioctl and linkerd. */
function stepEnv(): Record<string, string> {
  const env = kindProductEnv(host, { PATH: process.env.PATH ?? '/usr/bin:/bin' });
  return Object.fromEntries(['DOCKER_HOST', 'PATH', 'MESH_PERF_KIND', 'MESH_PERF_ISTIOCTL', 'MESH_PERF_LINKERD'].map((k) => [k, env[k]!]));
}

const netOf = (pid: number) => {
  try {
    return readlinkSync(`/proc/${pid}/ns/net`);
  } catch {
    return undefined;
  }
};
const inHost = () => ['nsenter', '--target', String(host.init), '--net', '--'];
test('workflows/daily.yml on platform kind: the cluster created, the baseline measured, the run published to gh-pages, the cluster deleted', {
  timeout: 1_200_000,
}, async () => {
  const caller = await createCaller(world, 'daily', {
    'mesh-perf.yaml': userConfig({ suite: 'kind-daily' }),
    '.github/workflows/daily.yml': await workflowText('workflows/daily.yml'),
  });
  const started = Date.now();
  const run = await runAct({
    world,
    caller,
    workflow: 'daily.yml',
    event: 'schedule',
    payload: { schedule: '17 3 * * *' },
    token: TOKEN,
    apiUrl: api.url,
    runId: 601,
    env: stepEnv(),
    launcher: inHost(),
    timeoutMs: 1_100_000,
  });
  timings.daily = (Date.now() - started) / 1000;
  assert.equal(run.code, 0, tail(run.output, 150));
  assert.match(run.output, /creating kind cluster "mesh-perf" \(2 workers\)/);
  assert.deepEqual(await artifactFiles(world, 601).then((f) => f.filter((x) => x.endsWith('results.json'))), [
    'mesh-perf-results/results.json',
  ]);
  const published = historyFiles(world, 'gh-pages').filter((f) => isRunFile(f, 'kind-daily'));
  assert.equal(published.length, 1, historyFiles(world, 'gh-pages').join('\n'));
  assert.deepEqual(await kindClusters(host), []);
  assert.deepEqual(await nodeContainers(host, 'mesh-perf'), []);
});

test('workflows/pr-gate.yml on platform kind: measured on a new cluster, one sticky comment through the GitHub API, the cluster deleted', {
  timeout: 1_200_000,
}, async () => {
  const caller = await createCaller(world, 'pr', {
    'mesh-perf.yaml': userConfig({ suite: 'kind-pr' }),
    '.github/workflows/pr-gate.yml': await workflowText('workflows/pr-gate.yml'),
  });
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: caller, encoding: 'utf8' }).trim();
  const baseSha = git('rev-parse', 'HEAD');
  await writeFile(join(caller, 'NOTES.md'), 'not a benchmark setting\n');
  git('add', 'NOTES.md');
  git('commit', '--quiet', '-m', 'notes');
  const started = Date.now();
  const run = await runAct({
    world,
    caller,
    workflow: 'pr-gate.yml',
    event: 'pull_request',
    payload: prPayload(21, { headSha: git('rev-parse', 'HEAD'), baseSha }),
    token: TOKEN,
    apiUrl: api.url,
    runId: 602,
    env: stepEnv(),
    launcher: inHost(),
    timeoutMs: 1_100_000,
  });
  timings.prGate = (Date.now() - started) / 1000;
  assert.equal(run.code, 0, tail(run.output, 150));
  const comments = api.comments.filter((c) => c.issue === 21);
  assert.equal(comments.length, 1, tail(run.output));
  assert.match(comments[0]!.body, /suite `kind-pr`/);
  assert.match(comments[0]!.body, /baseline/);
  assert.deepEqual(await kindClusters(host), []);
});

test("the PR gate's main step killed mid-measure: the action's post step deletes the cluster it made, and nothing of it is left", {
  timeout: 1_200_000,
}, async () => {
  const caller = await createCaller(world, 'killed', {
    // A longer repetition, so the kill lands while k6 measures.
    'mesh-perf.yaml': stringify({
      ...kindSettings(),
      suite: 'kind-killed',
      modes: [{ name: 'baseline' }],
      load: { rate: 50, duration: '120s', warmup: '2s', repetitions: 1 },
    }),
    '.github/workflows/pr-gate.yml': await workflowText('workflows/pr-gate.yml'),
  });
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: caller, encoding: 'utf8' }).trim();
  const sha = git('rev-parse', 'HEAD');
  let killed: number | undefined;
  let seen = '';
  const started = Date.now();
  const run = await runAct({
    world,
    caller,
    workflow: 'pr-gate.yml',
    event: 'pull_request',
    payload: prPayload(22, { headSha: sha, baseSha: sha }),
    token: TOKEN,
    apiUrl: api.url,
    runId: 603,
    env: stepEnv(),
    launcher: inHost(),
    timeoutMs: 1_100_000,
    onOutput: (text) => {
      // Once k6 measures in the cluster (the product says so repetition by repetition), the main
      // step's node process is killed outright: no finally, no teardown of its own.
      seen += text;
      if (killed !== undefined || !MEASURING.test(seen)) return;
      // The action's main process in this host's network (another test's act may run elsewhere).
      const net = host.record.namespaces!.net;
      const main = readdirSync('/proc')
        .filter((p) => /^\d+$/.test(p))
        .map(Number)
        .find((pid) => /dist\/action\.js$/.test(commandLine(pid)) && netOf(pid) === net);
      if (main) {
        killed = main;
        process.kill(main, 'SIGKILL');
      }
    },
  });
  timings.killed = (Date.now() - started) / 1000;
  assert.ok(killed, `the main step was never seen measuring:\n${tail(run.output, 120)}`);
  assert.notEqual(run.code, 0, 'a killed main step fails the job');
  assert.match(run.output, /removed kind cluster "mesh-perf"|deleted kind cluster "mesh-perf"/i, tail(run.output, 120));
  assert.deepEqual(await kindClusters(host), []);
  assert.deepEqual(await nodeContainers(host, 'mesh-perf'), []);
  // Nothing of the run in the host's Docker: no container, network or volume beyond the tier's own.
  assert.deepEqual((await host.docker(['ps', '-aq'])).trim(), '');
  assert.deepEqual((await host.docker(['volume', 'ls', '-q'])).trim(), '');
});
