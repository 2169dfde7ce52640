// The kind e2e jobs' check that each mesh mode's traffic really crossed its proxies
// (scripts/assert-mesh-path.mjs), on constructed results: what passes, and each way a mode can
// have run around its mesh while its proxies still burned CPU (issue 38 item 6): a gateway that
// skipped the waypoint, a pod ambient never captured, a baseline the mesh captured, plaintext.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
// @ts-expect-error: a plain .mjs script (CI runs it with node alone), without type declarations
import { meshPathProblems, PATH_PROXIES } from '../../scripts/assert-mesh-path.mjs';

const SCRIPT = resolve(import.meta.dirname, '..', '..', 'scripts', 'assert-mesh-path.mjs');

const usage = (group: string, scope: string, cpu: number, perK?: number) => ({
  group,
  scope,
  cpuMillicores: { min: cpu / 2, max: cpu * 2, avg: cpu },
  memoryMiB: { min: 20, max: 30, avg: 25 },
  ...(perK !== undefined ? { cpuPer1000Rps: perK } : {}),
  samples: cpu > 0 ? 3 : 0,
});

type Proxy = 'sidecar' | 'ztunnel' | 'waypoint' | 'gateway' | 'linkerd-proxy';
const SPIFFE = 'spiffe://cluster.local/ns/mp-x/sa/default';
/** What one proxy counted: requests (or ztunnel's connections and bytes), all under mutual TLS unless told. */
const counted = (proxy: Proxy, count: number, extra: Record<string, unknown> = {}) => ({
  proxy,
  pods: 1,
  unit: proxy === 'ztunnel' ? 'connections' : 'requests',
  count,
  mtls: proxy === 'gateway' ? 0 : count,
  plaintext: 0,
  ...(proxy === 'ztunnel' ? { bytesReceived: 900_000 } : {}),
  peers: proxy === 'gateway' || count === 0 ? [] : [SPIFFE],
  ...extra,
});
/** A repetition of 6000 requests (600 kB sent), with its CPU and what its proxies counted. */
const rep = (trial: number, resources: unknown[], proxies: unknown[] | undefined, valid = true) => ({
  trial,
  valid,
  requests: 6000,
  bytesSent: 600_000,
  resources,
  ...(proxies ? { path: { proxies } } : {}),
});
const mode = (name: string, mesh: string, reps: unknown[], target = mesh) => ({ name, mesh, profile: '200rps', target, repetitions: reps });

function run(): any {
  return {
    baseline: 'baseline',
    modes: [
      mode('baseline', 'baseline', [rep(0, [usage('app', 'baseline', 40)], [counted('ztunnel', 0, { bytesReceived: 0 })])]),
      mode('linkerd', 'linkerd', [
        rep(1, [usage('sidecar', 'linkerd', 35, 170)], [counted('linkerd-proxy', 6031, { mtls: 6000, plaintext: 31 })]),
        rep(4, [usage('sidecar', 'linkerd', 33, 160)], [counted('linkerd-proxy', 6030, { mtls: 6000, plaintext: 30 })]),
      ]),
      mode('istio-waypoint', 'istio-waypoint', [
        rep(
          2,
          [usage('ztunnel', 'istio-system', 12, 60), usage('waypoint', 'istio-waypoint', 55, 270)],
          [counted('waypoint', 6000), counted('ztunnel', 2)],
        ),
      ]),
      mode('istio-ambient', 'istio-ambient', [rep(3, [usage('ztunnel', 'istio-system', 11, 55)], [counted('ztunnel', 24)])]),
      mode('istio-sidecar', 'istio-sidecar', [rep(5, [usage('sidecar', 'istio-sidecar', 30, 150)], [counted('sidecar', 6004)])]),
    ],
  };
}

test("a run whose proxies all counted their mode's traffic under mutual TLS, and the baseline's not at all, passes", () => {
  assert.deepEqual(meshPathProblems(run(), ['linkerd', 'istio-waypoint', 'istio-ambient', 'istio-sidecar'], { cpuPer1000: true }), []);
  assert.deepEqual(PATH_PROXIES['istio-waypoint'], ['waypoint', 'ztunnel']);
});

test('each way a mode ran around its proxies while they still burned CPU is named', () => {
  const r = run();
  const find = (name: string) => r.modes.find((m: { name: string }) => m.name === name);
  // Issue 38 item 3: the gateway skipped the waypoint; the idle waypoint still used CPU.
  find('istio-waypoint').repetitions[0].path.proxies = [counted('waypoint', 0), counted('ztunnel', 2)];
  // An ambient pod never captured: ztunnel burned CPU for other pods but counted none of these.
  find('istio-ambient').repetitions[0].path.proxies = [counted('ztunnel', 0, { bytesReceived: 0 })];
  // A sidecar that let plaintext in.
  find('istio-sidecar').repetitions[0].path.proxies = [counted('sidecar', 6004, { mtls: 0, plaintext: 6004, peers: [] })];
  // The baseline's namespace was captured by ambient after all.
  find('baseline').repetitions[0].path.proxies = [counted('ztunnel', 20)];
  assert.deepEqual(meshPathProblems(r, ['istio-waypoint', 'istio-ambient', 'istio-sidecar'], { cpuPer1000: true }), [
    "mode istio-waypoint [200rps] repetition 2: waypoint counted 0 requests into the mode's namespace of the 6000 k6 sent: the traffic did not go through it",
    "mode istio-ambient [200rps] repetition 3: ztunnel counted 0 connections and 0 bytes into the mode's namespace of the 600000 bytes k6 sent: the traffic did not go through it",
    'mode istio-sidecar [200rps] repetition 5: sidecar saw 0 of its 6004 requests with mutual TLS (6004 without): mTLS was not in force',
    "mode baseline [200rps] repetition 0: ztunnel counted 20 connections into the mode's namespace, which a baseline mode does not cross",
  ]);
});

test('through an ingress: the gateway counts too, and Linkerd behind Istio’s gateway is not asked for mTLS it cannot have', () => {
  const via = (mesh: string, proxies: unknown[]) => mode(mesh, mesh, [rep(1, [], proxies)], `${mesh} via ingress gateway`);
  const ingress: any = {
    baseline: 'baseline',
    modes: [via('istio-waypoint', [counted('gateway', 6000), counted('waypoint', 6000), counted('ztunnel', 3)])],
  };
  assert.deepEqual(meshPathProblems(ingress, ['istio-waypoint']), []);
  ingress.modes[0].repetitions[0].path.proxies = [counted('gateway', 6000), counted('ztunnel', 3)];
  assert.deepEqual(meshPathProblems(ingress, ['istio-waypoint']), [
    "mode istio-waypoint [200rps] repetition 1: no waypoint pod's counters were read",
  ]);
  const linkerd = {
    modes: [via('linkerd', [counted('gateway', 6000), counted('linkerd-proxy', 6000, { mtls: 0, plaintext: 6000, peers: [] })])],
  };
  assert.deepEqual(meshPathProblems(linkerd, ['linkerd']), []);
});

test('results without counters (mesh-perf before they were read, or a read refused) fail naming why', () => {
  const r = run();
  r.modes.find((m: { name: string }) => m.name === 'istio-ambient').repetitions[0] = rep(
    3,
    [usage('ztunnel', 'istio-system', 11, 55)],
    undefined,
  );
  assert.deepEqual(meshPathProblems(r, ['istio-ambient']), [
    'mode istio-ambient [200rps] repetition 3: no proxy counters in its results (repetitions[].path); mesh-perf reads them on kind and kubeconfig',
  ]);
  const refused = run();
  refused.modes.find((m: { name: string }) => m.name === 'istio-sidecar').repetitions[0].path = {
    proxies: [{ ...counted('sidecar', 0), pods: 0 }],
    problems: ['sidecar pod mp-x/echo-1: port 15090 /stats/prometheus answered HTTP 403 (grant "get" on pods/proxy)'],
  };
  assert.deepEqual(meshPathProblems(refused, ['istio-sidecar']), [
    `mode istio-sidecar [200rps] repetition 5: no sidecar pod's counters were read (sidecar pod mp-x/echo-1: port 15090 /stats/prometheus answered HTTP 403 (grant "get" on pods/proxy))`,
  ]);
});

test('CPU per 1000 rps is still asked for with --cpu-per-1000; invalid repetitions are not judged, but a mode needs one valid', () => {
  const r = run();
  const ambient = r.modes.find((m: { name: string }) => m.name === 'istio-ambient');
  ambient.repetitions[0].resources = [usage('ztunnel', 'istio-system', 11)];
  assert.deepEqual(meshPathProblems(r, ['istio-ambient'], { cpuPer1000: true }), [
    'mode istio-ambient [200rps] repetition 3: ztunnel has no CPU per 1000 rps (is the measured window at least 60 s?)',
  ]);
  assert.deepEqual(meshPathProblems(r, ['istio-ambient']), []);
  ambient.repetitions[0].valid = false;
  assert.deepEqual(meshPathProblems(r, ['istio-ambient']), ['mode istio-ambient [200rps]: no valid repetition']);
  // The reasons mesh-perf gave are carried (its own path check invalidates a repetition that skipped the mesh).
  ambient.repetitions[0].invalidReasons = ['the traffic did not cross its ztunnel: 1 ztunnel pod counted none of its 12000 requests'];
  assert.deepEqual(meshPathProblems(r, ['istio-ambient']), [
    `mode istio-ambient [200rps]: no valid repetition (repetition ${ambient.repetitions[0].trial}: the traffic did not cross its ztunnel: 1 ztunnel pod counted none of its 12000 requests)`,
  ]);
  assert.deepEqual(meshPathProblems(r, ['istio-sidecar', 'nope']), ['mode nope: not in the results']);
});

test('as the CI step runs it: ::error lines and exit 1, or one line and exit 0', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mesh-path-'));
  try {
    const file = join(dir, 'results.json');
    writeFileSync(file, JSON.stringify(run()));
    const ok = spawnSync(process.execPath, [SCRIPT, file, 'linkerd', 'istio-waypoint', '--cpu-per-1000'], { encoding: 'utf8' });
    assert.equal(ok.status, 0, ok.stdout + ok.stderr);
    assert.equal(ok.stdout, 'proxies in the path, by their own counters: linkerd, istio-waypoint\n');
    const missing = spawnSync(process.execPath, [SCRIPT, file, 'kuma'], { encoding: 'utf8' });
    assert.equal(missing.status, 1);
    assert.equal(missing.stdout, '::error::mode kuma: not in the results\n');
    assert.equal(spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8' }).status, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("A/B arms of a mesh mode (linkerd-base, linkerd-head) are checked for their mode's proxies", () => {
  const arm = (side: string, count: number) => ({
    name: `linkerd-${side}`,
    arm: { of: 'linkerd', side },
    profile: '200rps',
    repetitions: [rep(1, [], [counted('linkerd-proxy', count)])],
  });
  assert.deepEqual(meshPathProblems({ modes: [arm('base', 6000), arm('head', 6000)] }, ['linkerd-base', 'linkerd-head']), []);
  assert.deepEqual(meshPathProblems({ modes: [arm('base', 6000), arm('head', 0)] }, ['linkerd-base', 'linkerd-head']), [
    "mode linkerd-head [200rps] repetition 1: linkerd-proxy counted 0 requests into the mode's namespace of the 6000 k6 sent: the traffic did not go through it",
  ]);
});

test('ci.yml checks every mesh mode it runs on kind with this script, and runs an ingress in front of a waypoint', async () => {
  const { parse } = await import('yaml');
  const { existsSync, readFileSync } = await import('node:fs');
  type Step = { uses?: string; run?: string; with?: Record<string, string> };
  const ci = parse(readFileSync(resolve(import.meta.dirname, '..', '..', '.github/workflows/ci.yml'), 'utf8')) as {
    jobs: Record<string, { steps?: Step[] }>;
  };
  const covered = new Set<string>();
  let ingressWaypoint = false;
  for (const [name, { steps = [] }] of Object.entries(ci.jobs)) {
    const action = steps.find((s) => s.uses === './');
    if (!action) continue;
    const check = steps.find((s) => s.run?.includes('node scripts/assert-mesh-path.mjs'));
    // The modes: the action's input, a config file in the repository, or one a step writes.
    const file = action.with?.config ? resolve(import.meta.dirname, '..', '..', action.with.config) : undefined;
    const config = `${file && existsSync(file) ? readFileSync(file, 'utf8') : ''}\n${steps.map((s) => s.run ?? '').join('\n')}`;
    const modes = [...(action.with?.modes ?? '').split(','), ...[...config.matchAll(/\bname: ([\w-]+)/g)].map((m) => m[1]!)];
    for (const m of modes) {
      if (!(m in PATH_PROXIES) || m === 'baseline') continue;
      assert.ok(check?.run?.includes(` ${m}`), `job ${name} runs ${m} on kind without checking its proxies' counters`);
      covered.add(m);
    }
    // The CPU figure needs a 60 s window (two kubelet refreshes of up to 30 s).
    if (check?.run?.includes('--cpu-per-1000') && action.with?.duration) assert.equal(action.with.duration, '60s');
    if (/ingress:/.test(config) && modes.includes('istio-waypoint') && check?.run?.includes(' istio-waypoint')) ingressWaypoint = true;
  }
  for (const m of ['linkerd', 'istio-sidecar', 'istio-ambient', 'istio-waypoint'])
    assert.ok(covered.has(m), `no kind e2e job asserts ${m}'s proxies`);
  assert.ok(ingressWaypoint, 'no kind e2e job sends an istio-waypoint mode through the ingress gateway and checks its waypoint counted it');
});
