// The fault tier (issue 51): real components broken under load on the real node, each fault
// injected by the harness mid-repetition while the product measures, and what the product must
// report for it. One run of baseline, istio-ambient and linkerd takes the faults that leave it
// running (a ztunnel pod deleted and ztunnel's process killed, the echo pod's linkerd-proxy killed
// and run out of memory, the echo pod deleted and evicted, the API server unreachable for 20 s);
// three more runs end early and are cleaned up (the API server away longer than
// kubernetes.apiOutage, SIGTERM, SIGKILL, each followed by `mesh-perf down`); and k6-operator is
// refused on this one-node cluster before anything starts. The node's containment is checked around all of it.
// docs/reliability.md is the table of these rows. A fault the harness cannot inject skips its row,
// saying why.

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, type TestContext, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { stringify } from 'yaml';
import type { Disruption, Repetition, RunResult } from '../../src/results/types.ts';
import { ACTIONS } from '../support/real/actions/index.ts';
import { superviseControllers } from '../support/real/actions/control-plane.ts';
import { kubectl } from '../support/real/actions/kubelet.ts';
import { componentPath } from '../support/real/components.ts';
import {
  apiServerOutage,
  deletePods,
  evictPod,
  FaultNotInjected,
  type Injected,
  killContainer,
  outOfMemory,
  ProductLines,
  underLoad,
} from '../support/real/faults.ts';
import { type HostSnapshot, hostSnapshot, nodeProcesses } from '../support/real/host-state.ts';
import { leakedPackets, startLeakCounter, stopLeakCounter } from '../support/real/leak-counter.ts';
import { down, NodeContext, up } from '../support/real/node.ts';
import { nodeSettings, type ProductRun, runProduct, startProduct } from '../support/real/product.ts';

const lines: string[] = [];
const log = (line: string) => {
  lines.push(line);
  if (process.env.MESH_PERF_REAL_VERBOSE) process.stderr.write(`${line}\n`);
};
let node: NodeContext;
let hostBefore: HostSnapshot;
let out: string;
/** The cluster before any run: what `down` must bring it back to. */
let clusterBefore: string[];
const timings: Record<string, number> = {};
/** Restarts a control-plane component that exits, as a cluster's supervisor would (superviseControllers). */
let supervisor: ReturnType<typeof superviseControllers> | undefined;

before(async () => {
  hostBefore = hostSnapshot();
  startLeakCounter();
  out = mkdtempSync(join(tmpdir(), 'mesh-perf-real-faults-'));
  node = new NodeContext(log);
  const started = Date.now();
  await up(ACTIONS, node);
  timings.up = (Date.now() - started) / 1000;
  supervisor = superviseControllers(node, log);
  clusterBefore = await clusterObjects();
});

after(async () => {
  // Whatever a failed test left (a stopped API server, a killed run's namespaces): down removes
  // the whole node, and the host must be as it was.
  await supervisor?.stop();
  if (node?.record.init) await down(ACTIONS, node).catch((e: Error) => log(`down after the tests: ${e.message}`));
  const leaked = leakedPackets();
  stopLeakCounter();
  if (out) rmSync(out, { recursive: true, force: true });
  assert.equal(leaked, 0, 'packets to or from 198.18.0.0/15 crossed the host');
  assert.deepEqual(hostSnapshot(), hostBefore, 'the host is as it was');
  if (process.env.MESH_PERF_REAL_TIMINGS)
    writeFileSync(process.env.MESH_PERF_REAL_TIMINGS, `${JSON.stringify({ ...timings, log: lines }, null, 2)}\n`);
});

/** Every namespace and cluster-scoped object a run or a mesh install may create, and everything labelled as mesh-perf's. */
async function clusterObjects(): Promise<string[]> {
  const kinds =
    'namespaces,customresourcedefinitions,clusterroles,clusterrolebindings,mutatingwebhookconfigurations,validatingwebhookconfigurations,apiservices';
  const labelled = 'pods,services,deployments,daemonsets,configmaps,secrets,serviceaccounts,roles,rolebindings';
  const cluster = (await kubectl(node, ['get', kinds, '-o', 'name'])).split('\n').filter(Boolean);
  const ours = (await kubectl(node, ['get', labelled, '-A', '-l', 'app.kubernetes.io/managed-by=mesh-perf', '-o', 'name']))
    .split('\n')
    .filter(Boolean);
  return [...cluster, ...ours.map((o) => `labelled ${o}`)].sort();
}

/**
 * What `down` (or a clean stop) left that was not there before the run. The API server removes
 * what it made itself for a CRD group (its APIService) just after the group's last CRD is gone:
 * a few seconds are allowed for that, nothing else.
 */
async function leftovers(): Promise<string[]> {
  for (let i = 0; ; i++) {
    const left = (await clusterObjects()).filter((o) => !clusterBefore.includes(o));
    if (left.length === 0 || i === 10 || left.some((o) => !o.startsWith('apiservice.'))) return left;
    await sleep(1000);
  }
}

function config(name: string, body: Record<string, unknown>): string {
  const settings = nodeSettings() as { kubernetes: Record<string, unknown> };
  const file = join(out, `${name}.yaml`);
  const { kubernetes, ...rest } = body as { kubernetes?: Record<string, unknown> };
  writeFileSync(
    file,
    stringify({
      suite: `faults-${name}`,
      ...settings,
      ...rest,
      kubernetes: { ...settings.kubernetes, readyTimeout: '3m', sampleInterval: '2s', ...kubernetes },
    }),
  );
  return file;
}

const readResults = (dir: string) => JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunResult;
const repsOf = (result: RunResult, mode: string) => result.modes.find((m) => m.name === mode)?.repetitions ?? [];
const repNumber = (result: RunResult, rep: Repetition) => result.plan.trials.find((t) => t.index === rep.trial)?.repetition;
/** The repetition of a mode that was under load when `at` happened. */
function repAt(result: RunResult, mode: string, at: number): Repetition | undefined {
  return repsOf(result, mode).find((r) => Date.parse(r.startedAt) <= at && at <= Date.parse(r.startedAt) + (r.durationS + 15) * 1000);
}

/** `mesh-perf run` of a config written by config(), its output logged and watched for the harness. */
function startRun(file: string, name: string): { product: ProductLines; running: ReturnType<typeof startProduct> } {
  const product = new ProductLines();
  const running = startProduct(node.init, ['run', '--config', file, '--out', join(out, name)], (line) => {
    log(line);
    product.push(line);
  });
  return { product, running };
}

/** Signals mesh-perf itself once its first istio-ambient repetition is under load. */
async function signalMidRun(file: string, name: string, signal: 'SIGTERM' | 'SIGKILL') {
  const { product, running } = startRun(file, name);
  await injectDuring(product, running.done, 'istio-ambient', 1, INJECT_AFTER_MS, async () => {
    running.child.kill(signal);
    return { fault: signal, at: Date.now(), detail: `${signal} to mesh-perf (pid ${running.child.pid})` };
  });
  return running.done;
}

/** Waits until `mode`'s repetition `rep` is under load, `afterMs` more, then injects; not when the run ended first. */
async function injectDuring(
  product: ProductLines,
  ended: Promise<ProductRun>,
  mode: string,
  rep: number,
  afterMs: number,
  inject: () => Promise<Injected>,
): Promise<Injected> {
  await Promise.race([
    product.waitFor(underLoad(mode, rep), 15 * 60_000),
    ended.then((run) => {
      // Said with the product's own last lines: why it ended is the finding.
      throw new FaultNotInjected(
        `the run ended (exit ${run.code}) before ${mode} rep ${rep} was under load; its last lines:\n${product.lines.slice(-25).join('\n')}`,
      );
    }),
  ]);
  await sleep(afterMs);
  const injected = await inject();
  log(`injected during ${mode} rep ${rep}: ${injected.detail}`);
  return injected;
}

/** A row the harness could not inject is skipped, saying why; any other failure fails it. */
function injectedOrSkip(t: TestContext, injected: Injected | Error | undefined, what: string): injected is Injected {
  if (injected instanceof FaultNotInjected) {
    t.skip(`${what} could not be injected: ${injected.message}`);
    return false;
  }
  if (injected instanceof Error) throw injected;
  assert.ok(injected, `${what} was never injected`);
  return true;
}

test('k6-operator on this one-node cluster: refused before anything is created, exit 3, with the reason (not a wait)', async () => {
  // The TestRun CRD, as k6-operator v1.6.0 installs it (the controller itself is not built here).
  const crd = join(import.meta.dirname, '../fixtures/k6-operator/testrun-crd.yaml');
  const applied = await node.exec('/bin/sh', ['-c', `"$0" --kubeconfig "$1" apply --server-side -f "$2"`, ...kubectlArgs(), crd], {
    namespaces: ['net', 'mount'],
  });
  assert.equal(applied.code, 0, applied.stderr);
  try {
    const before = await clusterObjects();
    const file = config('k6-operator', {
      modes: [{ name: 'baseline' }],
      load: { rate: 50, duration: '10s', warmup: '2s', repetitions: 1, engine: 'k6-operator' },
      kubernetes: { readyTimeout: '5m' },
    });
    const started = Date.now();
    const run = await runProduct(node.init, ['run', '--config', file, '--out', join(out, 'k6-operator')], log);
    const seconds = (Date.now() - started) / 1000;
    assert.equal(run.code, 3, `${run.stderr}\n${run.stdout.slice(-2000)}`);
    assert.match(
      run.stderr.replace(/\s+/g, ' '),
      /load\.generators 1 runs 1 k6-operator runner, each on a node without one of the mode's 1 echo pod \(kubernetes\.replicas\), which may take a node each: that needs 2 schedulable nodes; the cluster has 1 schedulable node \(mesh-perf-real\)\. Add a node, or use load\.engine: k6/,
    );
    assert.ok(seconds < 60, `refused after ${seconds} s`);
    assert.deepEqual(await clusterObjects(), before, 'nothing was created');
    log(`k6-operator refused in ${seconds.toFixed(1)} s`);
  } finally {
    await node.exec('/bin/sh', ['-c', `"$0" --kubeconfig "$1" delete --wait -f "$2"`, ...kubectlArgs(), crd], {
      namespaces: ['net', 'mount'],
    });
  }
});

function kubectlArgs(): string[] {
  const settings = nodeSettings() as { kubernetes: { kubeconfig: string } };
  return [kubectlPath(), settings.kubernetes.kubeconfig];
}

const kubectlPath = () => componentPath('kubectl');

// ---- The run the faults leave running -------------------------------------------------------

const MODES = ['baseline', 'istio-ambient', 'linkerd'];
/** From a repetition's first live line (k6's first second): its 2 s warm-up and 3 s into the 10 s window. */
const INJECT_AFTER_MS = 5000;
const RATE = 100;
let faulted: RunResult | undefined;
let faultedCode: number | undefined;
const injected: Record<string, Injected | Error | undefined> = {};

test('one run of baseline, istio-ambient and linkerd with a fault in six of its nine repetitions: the run goes on to the end, writes every repetition, and down after it leaves nothing', {
  timeout: 20 * 60_000,
}, async (t) => {
  const file = config('in-run', {
    modes: MODES.map((name) => ({ name })),
    // 10 s windows, 100 VUs (a second of arrivals) so that a stall of this shared machine shows in
    // the tail, not as dropped iterations; three blocks, every mode in each.
    load: { rate: RATE, duration: '10s', warmup: '2s', repetitions: 3, vus: 100 },
    plan: { seed: 51 },
  });
  t.after(() => cleanUp(file));
  const started = Date.now();
  const { product, running } = startRun(file, 'in-run');
  const inject = (name: string, mode: string, rep: number, what: () => Promise<Injected>) =>
    injectDuring(product, running.done, mode, rep, INJECT_AFTER_MS, what).then(
      (done) => (injected[name] = done),
      (error: Error) => (injected[name] = error),
    );
  await Promise.all([
    inject('ztunnel-pod', 'istio-ambient', 1, () => deletePods(node, 'istio-system', 'app=ztunnel')),
    inject('ztunnel-process', 'istio-ambient', 2, () => killContainer(node, 'istio-system', 'app=ztunnel', 'istio-proxy')),
    inject('linkerd-proxy', 'linkerd', 1, () => killContainer(node, 'mesh-perf-linkerd', 'app=echo', 'linkerd-proxy')),
    inject('linkerd-crash', 'linkerd', 2, () => outOfMemory(node, 'mesh-perf-linkerd', 'app=echo', 'linkerd-proxy')),
    inject('echo-deleted', 'baseline', 1, () => deletePods(node, 'mesh-perf-baseline', 'app=echo')),
    inject('echo-evicted', 'baseline', 2, () => evictPod(node, 'mesh-perf-baseline', 'app=echo')),
    inject('api-20s', 'baseline', 3, () => apiServerOutage(node, 20_000)),
    running.done,
  ]);
  const run = await running.done;
  timings.inRun = (Date.now() - started) / 1000;
  faultedCode = run.code;
  if (existsSync(join(out, 'in-run', 'results.json'))) faulted = readResults(join(out, 'in-run'));
  assert.ok(faulted, `no results.json (exit ${run.code})\n${run.stderr}`);
  assert.equal(faulted.run.aborted, undefined, `the run ended early: ${faulted.run.aborted}`);
  assert.equal(
    faulted.modes.reduce((n, m) => n + m.repetitions.length, 0),
    9,
    'every planned repetition ran',
  );
  for (const rep of faulted.modes.flatMap((m) => m.repetitions.map((r) => ({ mode: m.name, r }))))
    log(`${rep.mode} rep ${repNumber(faulted, rep.r)}: ${rep.r.valid ? 'valid' : `INVALID: ${rep.r.invalidReasons.join('; ')}`}`);
  assert.deepEqual(await leftovers(), [], 'the run removed everything it made');
});

/** The repetition a fault hit, invalid, with its disruption; and the mode's repetitions after it valid. */
function hit(t: TestContext, name: string, mode: string, check: (rep: Repetition, d: Disruption[]) => void): boolean {
  const fault = injected[name];
  if (!injectedOrSkip(t, fault, name)) return false;
  assert.ok(faulted, 'the faulted run wrote no results');
  const rep = repAt(faulted, mode, fault.at);
  assert.ok(rep, `no ${mode} repetition was under load at the fault (${new Date(fault.at).toISOString()})`);
  assert.equal(rep.valid, false, `${mode} rep ${repNumber(faulted, rep)} spans the fault and must not be compared`);
  check(rep, rep.disruptions ?? []);
  // Never a figure across it: the mode's summary counts only its valid repetitions.
  const later = repsOf(faulted, mode).filter((r) => Date.parse(r.startedAt) > fault.at + 60_000 && !r.disruptions);
  for (const r of later) assert.ok(r.valid, `${mode} rep ${repNumber(faulted, r)} after the fault: ${r.invalidReasons.join('; ')}`);
  return true;
}

test('ztunnel pod deleted mid-repetition: that ambient repetition is invalid, naming ztunnel, its old and new pod, and what the traffic did across it', (t) => {
  hit(t, 'ztunnel-pod', 'istio-ambient', (rep, d) => {
    const z = d.find((x) => x.component === 'ztunnel');
    assert.ok(z && z.event === 'deleted' && z.replacement, JSON.stringify(d));
    const reasons = rep.invalidReasons.join('; ');
    assert.match(
      reasons,
      /ztunnel pod istio-system\/ztunnel-\S+ was deleted during the repetition \(replaced by ztunnel-\S+\); (none of its [\d,]+ requests failed|[\d,]+ of its [\d,]+ requests failed \(.*\)): the traffic stayed on the old ztunnel/,
    );
    // What the traffic did, in the reason as measured: on the old ztunnel while it drained (25 s,
    // longer than what was left of the window), the new one counting none of it.
    if (z.terminating) assert.match(reasons, /still draining its connections when the repetition ended/);
    const counted = rep.path?.proxies.find((p) => p.proxy === 'ztunnel');
    assert.match(
      reasons,
      counted && counted.count > 0 ? /the new ztunnel counted [\d,]+ connections/ : /the new ztunnel counted none of it/,
    );
    assert.doesNotMatch(reasons, /did not cross its ztunnel/, 'the old wrong reason');
    log(`ztunnel deleted: ${reasons}`);
  });
});

test("ztunnel's process killed mid-repetition (the container restarts): invalid, naming the restart and its exit (137, a kill, not a crash)", (t) => {
  hit(t, 'ztunnel-process', 'istio-ambient', (rep, d) => {
    const z = d.find((x) => x.component === 'ztunnel' && x.event === 'restarted');
    assert.ok(z, JSON.stringify(d));
    assert.equal(z.exitCode, 137);
    assert.equal(z.crash, undefined);
    assert.match(
      rep.invalidReasons.join('; '),
      /ztunnel \(container istio-proxy\) in pod istio-system\/ztunnel-\S+ restarted during the repetition \(\S*,? ?exit 137\)/,
    );
  });
});

test("the echo pod's linkerd-proxy killed mid-repetition: invalid, naming the proxy's restart (exit 137, not a crash)", (t) => {
  hit(t, 'linkerd-proxy', 'linkerd', (rep, d) => {
    const l = d.find((x) => x.component === 'linkerd-proxy');
    assert.ok(l && l.event === 'restarted' && l.exitCode === 137 && !l.crash, JSON.stringify(d));
    assert.match(rep.invalidReasons.join('; '), /linkerd-proxy in pod mesh-perf-linkerd\/echo-\S+ restarted during the repetition/);
  });
});

test('linkerd-proxy OOM-killed mid-repetition (its memory limit outgrown under the load): its repetition invalid, and the crash is a finding: the verdict fails (exit 1) saying so', (t) => {
  const crashed = hit(t, 'linkerd-crash', 'linkerd', (rep, d) => {
    const l = d.find((x) => x.component === 'linkerd-proxy');
    assert.ok(l?.crash && l.reason === 'OOMKilled' && l.exitCode === 137, JSON.stringify(d));
    assert.match(
      rep.invalidReasons.join('; '),
      /linkerd-proxy in pod mesh-perf-linkerd\/echo-\S+ crashed under the load \(OOMKilled, exit 137\)/,
    );
  });
  // Skipped, saying why, when the harness could not run it out of memory.
  if (!crashed) return;
  assert.equal(faulted!.verdict, 'fail');
  assert.equal(faultedCode, 1);
  assert.ok(
    faulted!.verdictReasons.some((r) =>
      /^linkerd-proxy crashed under the load: linkerd \[\S+\] trial \d+, pod mesh-perf-linkerd\/echo-/.test(r),
    ),
    faulted!.verdictReasons.join('\n'),
  );
});

test('the echo pod deleted, then evicted, mid-repetition: each repetition invalid naming the pod and its replacement; the next waited for it', (t) => {
  for (const [name, how] of [
    ['echo-deleted', 'deleted'],
    ['echo-evicted', 'deleted|evicted'],
  ] as const) {
    hit(t, name, 'baseline', (rep, d) => {
      const e = d.find((x) => x.component === 'echo server');
      assert.ok(e && e.event === 'deleted', JSON.stringify(d));
      assert.match(
        rep.invalidReasons.join('; '),
        new RegExp(`echo server pod mesh-perf-baseline/echo-\\S+ was (${how}) during the repetition`),
      );
    });
  }
});

test('the API server unreachable for 20 s mid-repetition: survived (k6 ran on in its pod, the calls retried), that repetition valid, the outage said', (t) => {
  const fault = injected['api-20s'];
  if (!injectedOrSkip(t, fault, 'the API server outage')) return;
  const rep = repAt(faulted!, 'baseline', fault.at);
  assert.ok(rep, 'a baseline repetition was under load');
  assert.ok(rep.valid, rep.invalidReasons.join('; '));
  assert.ok(rep.achievedRps > RATE * 0.99, `${rep.achievedRps} rps`);
  assert.ok(rep.requests >= RATE * 10 * 0.99, `${rep.requests} requests`);
  assert.ok(
    lines.some((l) => /stopped answering while/.test(l)),
    'the outage was said',
  );
  assert.ok(
    lines.some((l) => /answers again, after \d+ s/.test(l)),
    'and its end',
  );
  assert.equal(faulted!.run.aborted, undefined);
});

// ---- Runs that end early --------------------------------------------------------------------

const SHORT = {
  modes: [{ name: 'baseline' }, { name: 'istio-ambient' }],
  load: { rate: RATE, duration: '10s', warmup: '2s', repetitions: 2, vus: 100 },
};

/**
 * After a run test: whatever it left (it failed half-way), `down` removes, so that the next run
 * starts from the cluster as it was; said in the log. The tests that are about `down` have run it.
 */
async function cleanUp(file: string): Promise<void> {
  const left = await leftovers().catch(() => []);
  if (left.length === 0) return;
  log(`cleaning up after a failed test: ${left.join(', ')}`);
  await runProduct(node.init, ['down', '--config', file], log).catch(() => undefined);
}

/** Runs `mesh-perf down` for a config and says what it printed. */
async function downFor(file: string) {
  const started = Date.now();
  const result = await runProduct(node.init, ['down', '--config', file], log);
  timings[`down ${file}`] = (Date.now() - started) / 1000;
  return result;
}

test('the API server away longer than kubernetes.apiOutage: a clean stop, exit 3, partial results written with verdict invalid naming the outage; once it is back, down removes everything the run made', {
  timeout: 15 * 60_000,
}, async (t) => {
  // The baseline alone: what `down` removes after the stop is the run's namespaces (the SIGKILL
  // row removes meshes too); the API server away 70 s against a limit of 15 s: the run stops at
  // ~17 s and its teardown waits out another 15 s for the server (a shorter outage ends within
  // that wait, and the run then removes everything itself), which is back at 70 s.
  const file = config('api-away', { ...SHORT, modes: [{ name: 'baseline' }], kubernetes: { apiOutage: '15s' } });
  t.after(() => cleanUp(file));
  const { product, running } = startRun(file, 'api-away');
  const outage = injectDuring(product, running.done, 'baseline', 1, INJECT_AFTER_MS, () => apiServerOutage(node, 70_000));
  const run = await running.done;
  await outage;
  assert.equal(run.code, 3, run.stderr);
  assert.match(run.stderr.replace(/\s+/g, ' '), /did not answer for \d+ s, longer than kubernetes\.apiOutage \(15s\)/);
  const result = readResults(join(out, 'api-away'));
  assert.equal(result.verdict, 'invalid');
  assert.match(result.run.aborted ?? '', /longer than kubernetes\.apiOutage/);
  assert.match(result.verdictReasons.join(' '), /run ended early/);
  assert.match(product.lines.join(' ').replace(/\s+/g, ' '), /teardown failed: cleanup of run \S+ was incomplete/);
  assert.ok((await leftovers()).length > 0, 'the stopped run left its namespaces for down');
  const removed = await downFor(file);
  assert.equal(removed.code, 0, removed.stderr);
  assert.match(removed.stdout, /namespaces: .*mesh-perf-baseline/);
  assert.deepEqual(await leftovers(), [], 'down removed everything the run made');
});

test('mesh-perf SIGTERM mid-repetition: partial results written (verdict invalid, cancelled), everything torn down by the run itself; down finds nothing', {
  timeout: 15 * 60_000,
}, async (t) => {
  const file = config('sigterm', SHORT);
  t.after(() => cleanUp(file));
  const run = await signalMidRun(file, 'sigterm', 'SIGTERM');
  assert.equal(run.code, 143, run.stderr);
  assert.match(run.stderr, /SIGTERM received; stopping load and cleaning up/);
  const result = readResults(join(out, 'sigterm'));
  assert.equal(result.verdict, 'invalid');
  assert.match(result.run.aborted ?? '', /cancelled/);
  assert.ok(existsSync(join(out, 'sigterm', 'summary.md')));
  assert.deepEqual(await leftovers(), [], 'the run removed everything it made');
  const removed = await downFor(file);
  assert.equal(removed.code, 0, removed.stderr);
  assert.match(removed.stdout, /Nothing of suite "faults-sigterm" found/);
});

test('mesh-perf SIGKILL mid-repetition: it leaves its namespaces and meshes; down removes them completely, by the ownership labels, namespaces and cluster-scoped objects alike', {
  timeout: 15 * 60_000,
}, async (t) => {
  const file = config('sigkill', { ...SHORT, modes: [...SHORT.modes, { name: 'linkerd' }] });
  t.after(() => cleanUp(file));
  const run = await signalMidRun(file, 'sigkill', 'SIGKILL');
  assert.equal(run.code, 137);
  const left = await leftovers();
  assert.ok(
    left.some((o) => /^namespace\/mesh-perf-baseline$/.test(o)),
    left.join('\n'),
  );
  assert.ok(
    left.some((o) => /customresourcedefinition/.test(o)),
    `the meshes' CRDs are left too:\n${left.join('\n')}`,
  );
  const removed = await downFor(file);
  assert.equal(removed.code, 0, removed.stderr);
  assert.match(removed.stdout, /meshes: istio, linkerd/);
  assert.deepEqual(await leftovers(), [], 'down removed everything the killed run made');
});

test('the node after the faults: its API server answers, nothing of the runs is left, and no process of it is outside its namespaces', async () => {
  assert.deepEqual(await leftovers(), []);
  const ns = node.record.namespaces!;
  assert.ok(nodeProcesses(ns).length > 0);
  log(`tier timings ${JSON.stringify(timings)}`);
});
