// A/B arms in the config: expansion into <mode>-base / <mode>-head, and every bad input named by
// its field with exit 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, validateConfig } from '../../src/config/validate.ts';
import { buildPlan, extendPlan } from '../../src/plan/plan.ts';
import { FIRST_AB_LOOK } from '../../src/config/budget.ts';
import { MIN_AB_PAIRS } from '../../src/analysis/ab/design.ts';
import { lookPlan, placeLooks } from '../../src/plan/looks.ts';
import { istioRevisions } from '../../src/config/istio-revisions.ts';
import { preflightProblems } from '../../src/load/preflight.ts';

const local = (extra: Record<string, unknown> = {}, modes?: unknown[]) => ({
  platform: 'local',
  modes: modes ?? [{ name: 'direct' }, { name: 'proxy', local: { hops: 1 }, arms: { head: { local: { delay: '1ms' } } } }],
  load: { rate: 50, duration: '2s', warmup: '1s' },
  ...extra,
});

function problems(raw: unknown): { path: string; message: string }[] {
  try {
    validateConfig(raw);
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    assert.equal(error.exitCode, 2);
    return error.problems;
  }
  assert.fail('expected a config error');
}

test('a mode with arms runs as <mode>-base and <mode>-head, each the mode with its overrides', () => {
  const config = validateConfig(local());
  assert.deepEqual(
    config.modes.map((m) => m.name),
    ['direct', 'proxy-base', 'proxy-head'],
  );
  const [, base, head] = config.modes;
  assert.deepEqual(base!.arm, { of: 'proxy', side: 'base' });
  assert.deepEqual(head!.arm, { of: 'proxy', side: 'head' });
  assert.deepEqual(base!.local, { hops: 1 });
  assert.deepEqual(head!.local, { hops: 1, delay: '1ms' });
  assert.equal('arms' in head!, false);
  assert.equal(config.baseline, 'direct');
});

test('env merges key by key; url replaces; a baseline with arms is its base arm', () => {
  const config = validateConfig({
    platform: 'endpoints',
    modes: [
      {
        name: 'svc',
        url: 'http://127.0.0.1:1/',
        env: { A: '1', B: '2' },
        arms: { base: { env: { B: 'base' } }, head: { url: 'http://127.0.0.1:2/', env: { C: '3' } } },
      },
    ],
    load: { rate: 10, duration: '1s', warmup: '0s' },
  });
  const [base, head] = config.modes;
  assert.deepEqual(base!.env, { A: '1', B: 'base' });
  assert.equal(base!.url, 'http://127.0.0.1:1/');
  assert.deepEqual(head!.env, { A: '1', B: '2', C: '3' });
  assert.equal(head!.url, 'http://127.0.0.1:2/');
  assert.equal(config.baseline, 'svc-base');
});

test('load.repetitions auto is the default: the first look is plan.budget.minBlocks; a number is fixed', () => {
  const auto = validateConfig(local());
  assert.equal(auto.profiles[0]!.repetitions, 3);
  assert.equal(auto.profiles[0]!.untilDecided, true);
  // With arms the budget is the A/B design's: 40 blocks, 12 minutes (without arms 27 and 8, as before).
  assert.deepEqual(auto.plan.budget, { minBlocks: 3, maxBlocks: 40, maxDuration: '12m', maxDurationMs: 720_000 });
  const plain = validateConfig(local({}, [{ name: 'a' }, { name: 'b' }]));
  assert.deepEqual(plain.plan.budget, { minBlocks: 3, maxBlocks: 27, maxDuration: '8m', maxDurationMs: 480_000 });
  const fixed = validateConfig(local({ load: { rate: 50, duration: '2s', repetitions: 5 } }));
  assert.equal(fixed.profiles[0]!.repetitions, 5);
  assert.equal(fixed.profiles[0]!.untilDecided, false);
});

test('both arms run in the same randomized blocks; a later look adds blocks of the modes that need them only', () => {
  const config = validateConfig(local());
  const plan = buildPlan(config, 11);
  for (let block = 1; block <= 3; block++)
    assert.deepEqual(
      plan.trials
        .filter((t) => t.block === block)
        .map((t) => t.mode.name)
        .sort(),
      ['direct', 'proxy-base', 'proxy-head'],
    );
  const arms = config.modes.filter((m) => m.arm);
  const more = extendPlan(config, plan, arms, 2, 2);
  assert.equal(more.length, 4);
  assert.deepEqual(
    more.map((t) => t.block),
    [4, 4, 5, 5],
  );
  assert.deepEqual(
    more.map((t) => t.index),
    [9, 10, 11, 12],
  );
  for (const t of more) {
    assert.equal(t.round, 2);
    assert.equal(t.planned, 5);
    assert.ok(t.repetition === 4 || t.repetition === 5);
  }
  // Randomized within blocks: over seeds, both orders of the two arms occur.
  const firsts = new Set([1, 2, 3, 4, 5, 6, 7, 8].map((seed) => extendPlan(config, { ...plan, seed }, arms, 1, 2)[0]!.mode.name));
  assert.equal(firsts.size, 2);
});

test('a fixed profile gets no extension blocks', () => {
  const config = validateConfig(local({ load: { rate: 50, duration: '2s', repetitions: 4 } }));
  assert.deepEqual(extendPlan(config, buildPlan(config, 1), config.modes, 3, 2), []);
});

const BAD: { name: string; raw: unknown; path: string; includes: string[] }[] = [
  {
    name: 'identical arms',
    raw: local({}, [{ name: 'm', local: { hops: 1 }, arms: { head: { local: { hops: 1 } } } }]),
    path: 'modes[0].arms',
    includes: ['same settings'],
  },
  {
    name: 'identical arms on endpoints (same URL written twice)',
    raw: {
      platform: 'endpoints',
      modes: [{ name: 'm', arms: { base: { url: 'http://127.0.0.1:1/' }, head: { url: 'http://127.0.0.1:1/' } } }],
      load: { rate: 10, duration: '1s' },
    },
    path: 'modes[0].arms',
    includes: ['same settings'],
  },
  {
    name: 'a name whose arm would pass 40 characters',
    raw: local({}, [{ name: 'a'.repeat(36), arms: { head: { local: { delay: '1ms' } } } }]),
    path: 'modes[0].name',
    includes: [`"${'a'.repeat(36)}-base" (41 characters`, 'at most 35'],
  },
  {
    name: 'an arm colliding with another mode',
    raw: local({}, [{ name: 'x-head' }, { name: 'x', arms: { head: { local: { delay: '1ms' } } } }]),
    path: 'modes[1].arms',
    includes: ['"x-head", the name of another mode'],
  },
  {
    name: 'arms of an ambient mode on kind (one ztunnel per node)',
    raw: {
      platform: 'kind',
      modes: [{ name: 'baseline' }, { name: 'istio-ambient', arms: { head: { namespaceLabels: { team: 'b' } } } }],
      load: { rate: 10 },
    },
    path: 'modes[1].arms',
    includes: ['cannot differ in one cluster', 'one ztunnel per node', 'compare "istio-ambient" with history'],
  },
  {
    name: "an Istio revision label on an arm (the tool labels it with the arm's own revision)",
    raw: {
      platform: 'kubeconfig',
      modes: [{ name: 'istio-sidecar', arms: { head: { namespaceLabels: { 'istio.io/rev': 'canary' } } } }],
      load: { rate: 10 },
    },
    path: 'modes[0].arms.head.namespaceLabels.istio.io/rev',
    includes: ['cannot differ between arms', 'give the arm istio: { version, hub, set }'],
  },
  {
    name: 'server manifests off a cluster',
    raw: local({}, [{ name: 'm', arms: { head: { local: { hops: 1 }, serverManifests: 'v2.yaml' } } }]),
    path: 'modes[0].arms.head.serverManifests',
    includes: ['does not apply to platform "local"', 'applied on kind and kubeconfig'],
  },
  {
    name: "an arm's server manifests beside the mode's echo image",
    raw: {
      platform: 'kind',
      modes: [{ name: 'baseline', echoImage: 'app:1.0.0', arms: { head: { serverManifests: 'v2.yaml' } } }],
      load: { rate: 10 },
    },
    path: 'modes[0].arms.head.serverManifests',
    includes: ['is applied as written, so echoImage (app:1.0.0) beside it would be ignored', 'set the image in v2.yaml'],
  },
  {
    name: 'an Istio revision off a cluster',
    raw: local({}, [{ name: 'm', local: { hops: 1 }, arms: { head: { local: { hops: 2 }, istio: { version: '1.29.2' } } } }]),
    path: 'modes[0].arms.head.istio',
    includes: ['does not apply to platform "local"', 'control plane installed in the cluster'],
  },
  {
    name: 'an Istio revision on a Linkerd mode',
    raw: { platform: 'kind', modes: [{ name: 'linkerd', istio: { version: '1.29.2' } }], load: { rate: 10 } },
    path: 'modes[0].istio',
    includes: ['only an istio-sidecar or istio-waypoint mode runs under its own Istio revision', 'mesh linkerd'],
  },
  {
    name: 'an Istio revision on an ambient mode',
    raw: { platform: 'kind', modes: [{ name: 'istio-ambient', istio: { version: '1.29.2' } }], load: { rate: 10 } },
    path: 'modes[0].istio',
    includes: ['one ztunnel per node shared by every revision'],
  },
  {
    name: 'two modes naming the same revision',
    raw: {
      platform: 'kind',
      modes: [
        { name: 'a', mesh: 'istio-sidecar', istio: { revision: 'canary' } },
        { name: 'b', mesh: 'istio-sidecar', istio: { revision: 'canary', version: '1.29.2' } },
      ],
      load: { rate: 10 },
    },
    path: 'modes[1].istio.revision',
    includes: ['revision "canary" is also a\'s'],
  },
  {
    name: 'the revision "default"',
    raw: { platform: 'kind', modes: [{ name: 'istio-sidecar', istio: { revision: 'default' } }], load: { rate: 10 } },
    path: 'modes[0].istio.revision',
    includes: ["the revision of the run's own Istio install"],
  },
  {
    name: 'a revision name that is not a DNS label',
    raw: { platform: 'kind', modes: [{ name: 'istio-sidecar', istio: { revision: 'Canary_1' } }], load: { rate: 10 } },
    path: 'modes[0].istio.revision',
    includes: ['lowercase letters, digits and inner dashes', '"Canary_1"'],
  },
  {
    name: 'an Istio version that is not one',
    raw: { platform: 'kind', modes: [{ name: 'istio-sidecar', arms: { head: { istio: { version: 'latest' } } } }], load: { rate: 10 } },
    path: 'modes[0].arms.head.istio.version',
    includes: ['an Istio version such as 1.29.2', '"latest"'],
  },
  {
    name: "arms whose revisions install the same thing (the run's Istio written out)",
    raw: {
      platform: 'kind',
      modes: [{ name: 'istio-sidecar', arms: { head: { istio: { version: '1.30.3' } } } }],
      load: { rate: 10 },
    },
    path: 'modes[0].arms',
    includes: ['the same settings', 'istio (an istio-sidecar or istio-waypoint mode)'],
  },
  {
    name: "an arm changing the mesh's enrolment",
    raw: {
      platform: 'kind',
      modes: [{ name: 'linkerd', arms: { head: { namespaceAnnotations: { 'linkerd.io/inject': 'disabled' } } } }],
      load: { rate: 10 },
    },
    path: 'modes[0].arms.head.namespaceAnnotations.linkerd.io/inject',
    includes: ['the mesh sets it (linkerd enrols the namespace)'],
  },
  {
    name: 'a url on an arm in a cluster',
    raw: { platform: 'kind', modes: [{ name: 'baseline', arms: { head: { url: 'http://127.0.0.1:1/' } } }], load: { rate: 10 } },
    path: 'modes[0].arms.head.url',
    includes: ['the tool deploys the workload in the cluster', 'namespaceLabels, namespaceAnnotations'],
  },
  {
    name: 'identical arms in a cluster',
    raw: { platform: 'kind', modes: [{ name: 'linkerd', arms: { head: {} } }], load: { rate: 10 } },
    path: 'modes[0].arms',
    includes: ['the same settings', 'config.linkerd.io/proxy-cpu-limit'],
  },
  {
    name: 'a url on a local arm',
    raw: local({}, [{ name: 'm', arms: { head: { url: 'http://127.0.0.1:1/' } } }]),
    path: 'modes[0].arms.head.url',
    includes: ['does not apply to platform "local"'],
  },
  {
    name: 'an endpoints arm without an address',
    raw: { platform: 'endpoints', modes: [{ name: 'm', arms: { head: { url: 'http://127.0.0.1:2/' } } }], load: { rate: 10 } },
    path: 'modes[0].arms.base.url',
    includes: ['is required'],
  },
  {
    name: 'a fixed port on a mode with arms',
    raw: local({}, [{ name: 'm', local: { port: 18080 }, arms: { head: { local: { delay: '1ms' } } } }]),
    path: 'modes[0].local.port',
    includes: ['two servers'],
  },
  {
    name: 'a port in an arm',
    raw: local({}, [{ name: 'm', arms: { head: { local: { port: 1 } } } }]),
    path: 'modes[0].arms.head.local',
    includes: ['unknown key "port"'],
  },
  {
    name: 'a gate scoped to the mode instead of its arms',
    raw: local({ gates: { thresholds: ['mode=proxy: p(99) < 5ms'] } }),
    path: 'gates.thresholds',
    includes: ['proxy-head'],
  },
  {
    name: 'repetitions neither a count nor auto',
    raw: local({ load: { rate: 50, duration: '2s', repetitions: 'many' } }),
    path: 'load.repetitions',
    includes: ['"auto"', '"many"'],
  },
  {
    name: 'maxBlocks under minBlocks',
    raw: local({ plan: { budget: { minBlocks: 6, maxBlocks: 4 } } }),
    path: 'plan.budget.maxBlocks',
    includes: ['at least plan.budget.minBlocks (6'],
  },
  {
    name: 'a time budget shorter than the first look',
    raw: local({ plan: { budget: { maxDuration: '10s' } } }),
    path: 'plan.budget.maxDuration',
    // 3 modes × 10 blocks (the A/B gate's first look) × (1 s warm-up + 2 s) = 90 s
    includes: ['too short for even one look', "first look's 10 blocks take 1 m 30 s", 'at least 1m30s'],
  },
  {
    name: 'a p99 A/B gate on repetitions too short to hold the quantile',
    raw: local({ gates: { ab: { statistics: ['p50', 'p99'] } } }),
    path: 'gates.ab.statistics[1]',
    // 50 rps × 2 s = 100 requests; p99 needs 5,000 (50 beyond it): 100 s at this rate, or 2,500 rps.
    includes: [
      'p99 needs at least 5,000 requests per repetition',
      'load gives about 100 (50 rps × 2 s)',
      'load.duration of at least 1m40s',
      'load.rate of at least 2500',
    ],
  },
  {
    name: 'a p90 A/B gate on one of two profiles too short for it',
    raw: local({
      load: [
        { rate: 500, duration: '2s' },
        { rate: 50, duration: '2s' },
      ],
      gates: { ab: { statistics: ['p90'] } },
    }),
    path: 'gates.ab.statistics[0]',
    includes: ['p90 needs at least 500 requests per repetition', 'load[1] gives about 100', 'load[1].duration of at least 10s'],
  },
  {
    name: 'one echo pod per arm on a cluster',
    raw: {
      platform: 'kind',
      modes: [{ name: 'app', arms: { head: { echoImage: 'app:2' } } }],
      load: { rate: 10 },
      kubernetes: { replicas: 1 },
    },
    path: 'kubernetes.replicas',
    includes: ['each arm on at least 2 echo pods', 'expected at least 2, got 1'],
  },
  {
    name: 'a load profile scaling arms to one pod',
    raw: {
      platform: 'kind',
      modes: [{ name: 'app', mesh: 'baseline', arms: { head: { echoImage: 'app:2' } } }],
      load: [{ rate: 10, replicas: 1 }],
    },
    path: 'load[0].replicas',
    includes: ['expected at least 2, got 1'],
  },
];

for (const bad of BAD) {
  test(`bad input: ${bad.name} → exit 2 naming ${bad.path}`, () => {
    const found = problems(bad.raw);
    const problem = found.find((p) => p.path.startsWith(bad.path));
    assert.ok(problem, `no problem at ${bad.path}: ${JSON.stringify(found)}`);
    for (const text of bad.includes) assert.ok(problem.message.includes(text), `${problem.message} lacks ${text}`);
  });
}

test('the default time budget never refuses a run without arms (its first look is what it always ran)', () => {
  const modes = Array.from({ length: 8 }, (_, i) => ({ name: `m${i}` }));
  const config = validateConfig(local({ load: { rate: 10, duration: '30s' } }, modes));
  assert.equal(config.profiles[0]!.untilDecided, true);
});

test("config's first A/B look is the A/B gate's fewest pairs", () => {
  assert.ok(FIRST_AB_LOOK >= MIN_AB_PAIRS);
});

test("the looks: a run with arms looks first at the design's first look; the time budget places the last look where it ends", () => {
  const config = validateConfig(local({ load: { rate: 50, duration: '10s', warmup: '2s' } }));
  const looks = lookPlan(config);
  assert.equal(looks.fixed, false);
  assert.equal(looks.looks[0], 10);
  // 3 modes × 10 blocks × 12 s = 360 s; then 2 arms × 12 s = 24 s a block: (720 − 360) ÷ 24 = 15 more → 25.
  assert.equal(looks.firstLookSeconds, 360);
  assert.equal(looks.extensionBlockSeconds, 24);
  assert.equal(looks.maxBlocks, 25);
  assert.deepEqual(looks.looks, [10, 20, 25]);
  const tight = lookPlan(
    validateConfig(local({ load: { rate: 50, duration: '10s', warmup: '2s' }, plan: { budget: { maxDuration: '6m30s' } } })),
  );
  // (390 − 360) ÷ 24 = 1 more block → 11.
  assert.equal(tight.maxBlocks, 11);
  assert.equal(tight.limit, 'time');
  assert.deepEqual(tight.looks, [10, 11]);
});

test('looks placed where the budget ends at the measured pace: planned looks that fit stay, the last moves to where the time ends', () => {
  const plan = lookPlan(validateConfig(local()));
  assert.deepEqual(plan.looks, [10, 20, 30, 40]);
  assert.equal(placeLooks(plan, 1, 25), plan, 'room for all: nothing moves');
  const moved = placeLooks(plan, 1, 13.7);
  assert.deepEqual(moved.looks, [10, 20, 30, 33]);
  assert.deepEqual(moved.design.looks, [10, 20, 30, 33]);
  assert.deepEqual(moved.design.failZ.slice(0, 2), plan.design.failZ.slice(0, 2), 'the looks already made keep their boundaries');
  assert.equal(moved.limit, 'time');
  assert.deepEqual(placeLooks(plan, 1, 4).looks, [10, 20, 24]);
  assert.deepEqual(placeLooks(plan, 1, 0.5).looks, [10, 20], 'no block left: this look is the last');
});

test('a run with arms measures 6 s + 2 s repetitions unless the profile says otherwise; a run without, 30 s + 5 s', () => {
  const ab = validateConfig(local({ load: { rate: 50 } }));
  assert.deepEqual([ab.profiles[0]!.duration, ab.profiles[0]!.durationMs, ab.profiles[0]!.warmupMs], ['6s', 6_000, 2_000]);
  const written = validateConfig(local({ load: { rate: 50, duration: '20s', warmup: '3s' } }));
  assert.deepEqual([written.profiles[0]!.durationMs, written.profiles[0]!.warmupMs], [20_000, 3_000]);
  const plain = validateConfig(local({ load: { rate: 50 } }, [{ name: 'a' }, { name: 'b' }]));
  assert.deepEqual([plain.profiles[0]!.duration, plain.profiles[0]!.durationMs, plain.profiles[0]!.warmupMs], ['30s', 30_000, 5_000]);
  // Defaults fit the 12-minute budget: 3 modes × 10 blocks × 8 s = 240 s, then 2 arms × 8 s a block:
  // (720 − 240) ÷ 16 = 30 more, the whole 40-block budget the synthetic targets are met at.
  assert.equal(lookPlan(ab).maxBlocks, 40);
});

test('the looks without arms start at minBlocks (the 3 repetitions runs always had); N fixed is one look', () => {
  const plain = lookPlan(validateConfig(local({}, [{ name: 'a' }, { name: 'b' }])));
  assert.equal(plain.looks[0], 3);
  const fixed = lookPlan(validateConfig(local({ load: { rate: 50, duration: '2s', repetitions: 5 } })));
  assert.equal(fixed.fixed, true);
  assert.deepEqual(fixed.looks, [5]);
});

test('plan.budget.maxBlocks below the first A/B look caps it: a run with arms and maxBlocks 4 looks once, at 4', () => {
  const looks = lookPlan(validateConfig(local({ plan: { budget: { maxBlocks: 4 } } })));
  assert.deepEqual([looks.looks, looks.maxBlocks], [[4], 4]);
});

test('arms of a waypoint mode: each its own revision for its waypoint (the ztunnel is shared); an ambient mode still cannot have arms', () => {
  const config = validateConfig({
    platform: 'kind',
    modes: [{ name: 'baseline' }, { name: 'istio-waypoint', arms: { head: { istio: { version: '1.30.4' } } } }],
    load: { rate: 10 },
  });
  assert.deepEqual(
    istioRevisions(config.modes, config.kubernetes.istio).map((r) => [r.mode, r.revision, r.version]),
    [
      ['istio-waypoint-base', 'mp-istio-waypoint-base', '1.30.3'],
      ['istio-waypoint-head', 'mp-istio-waypoint-head', '1.30.4'],
    ],
  );
  const ambient = problems({
    platform: 'kind',
    modes: [{ name: 'istio-ambient', arms: { head: { istio: { version: '1.30.4' } } } }],
    load: { rate: 10 },
  });
  assert.deepEqual(
    ambient.map((p) => p.path),
    ['modes[0].arms'],
  );
  assert.match(ambient[0]!.message, /one ztunnel per node/);
});

test("an arm's own server manifests replace the mode's (or the built-in server); a missing file is named by plan's checks", () => {
  const config = validateConfig({
    platform: 'kind',
    modes: [{ name: 'app', mesh: 'baseline', arms: { head: { serverManifests: 'k8s/app-v2.yaml' } } }],
    load: { rate: 10 },
  });
  assert.deepEqual(
    config.modes.map((m) => [m.name, m.serverManifests]),
    [
      ['app-base', undefined],
      ['app-head', 'k8s/app-v2.yaml'],
    ],
  );
  const found = preflightProblems(config, '/nonexistent-dir');
  assert.deepEqual(
    found.map((p) => p.path),
    ['modes (app-head).serverManifests'],
  );
  assert.match(found[0]!.message, /does not exist: "k8s\/app-v2.yaml" \(resolved to \/nonexistent-dir\/k8s\/app-v2.yaml\)/);
});

test("two Istio revisions: when either arm names istio, both run under their own revision (mp-<arm> unless named), unset fields the run's", () => {
  const config = validateConfig({
    platform: 'kind',
    modes: [
      { name: 'baseline' },
      {
        name: 'istio-sidecar',
        istio: { revision: 'shared', hub: 'mirror.test/istio' },
        arms: { head: { istio: { version: '1.31.0', set: { 'values.pilot.env.X': '1' } } } },
      },
    ],
    load: { rate: 10 },
    kubernetes: { istio: { set: { 'values.global.logging.level': 'default:info' } } },
  });
  const revisions = istioRevisions(config.modes, config.kubernetes.istio);
  assert.deepEqual(revisions, [
    {
      mode: 'istio-sidecar-base',
      revision: 'mp-istio-sidecar-base',
      version: '1.30.3',
      hub: 'mirror.test/istio',
      set: { 'values.global.logging.level': 'default:info' },
    },
    {
      mode: 'istio-sidecar-head',
      revision: 'mp-istio-sidecar-head',
      version: '1.31.0',
      hub: 'mirror.test/istio',
      set: { 'values.pilot.env.X': '1' },
    },
  ]);
  // A mode of its own (no arms) keeps its name; a mode without istio has no revision.
  const own = validateConfig({
    platform: 'kind',
    modes: [{ name: 'baseline' }, { name: 'canary', mesh: 'istio-sidecar', istio: { revision: 'canary', version: '1.31.0' } }],
    load: { rate: 10 },
  });
  assert.deepEqual(
    istioRevisions(own.modes, own.kubernetes.istio).map((r) => [r.mode, r.revision, r.version]),
    [['canary', 'canary', '1.31.0']],
  );
});

test('arms in a cluster: a Linkerd mode whose arms differ in per-workload proxy annotations runs as two namespaces', () => {
  const config = validateConfig({
    platform: 'kind',
    modes: [
      { name: 'baseline' },
      {
        name: 'linkerd',
        namespaceAnnotations: { 'config.linkerd.io/proxy-cpu-limit': '1' },
        arms: { head: { namespaceAnnotations: { 'config.linkerd.io/proxy-cpu-limit': '2' } } },
      },
    ],
    load: { rate: 10 },
  });
  assert.deepEqual(
    config.modes.map((m) => [m.name, m.namespaceAnnotations?.['config.linkerd.io/proxy-cpu-limit']]),
    [
      ['baseline', undefined],
      ['linkerd-base', '1'],
      ['linkerd-head', '2'],
    ],
  );
});

test("arms of two app builds: the head arm's echoImage replaces the run's; refused where no image is deployed, over the user's own manifests, or when it is the run's image", () => {
  const kind = (modes: unknown[], kubernetes: Record<string, unknown> = {}) => ({
    platform: 'kind',
    modes,
    load: { rate: 10 },
    kubernetes,
  });
  const config = validateConfig(
    kind([{ name: 'baseline', arms: { head: { echoImage: 'example.test/app:2.0.0' } } }], { images: { registry: 'mirror.test' } }),
  );
  assert.deepEqual(
    config.modes.map((m) => [m.name, m.echoImage]),
    [
      ['baseline-base', undefined],
      // The registry mirror applies to an arm's own image as to the run's.
      ['baseline-head', 'mirror.test/app:2.0.0'],
    ],
  );
  assert.deepEqual(
    problems(local({}, [{ name: 'direct', arms: { head: { echoImage: 'example.test/app:2.0.0' } } }])).map((p) => p.path),
    ['modes[0].arms.head.echoImage'],
  );
  assert.match(
    problems(local({}, [{ name: 'direct', echoImage: 'example.test/app:2.0.0' }]))[0]!.message,
    /does not apply to platform "local": the local and endpoints platforms deploy no image/,
  );
  const own = problems(
    kind([{ name: 'baseline', arms: { head: { echoImage: 'example.test/app:2.0.0' } } }], { manifests: { server: 'server.yaml' } }),
  );
  assert.deepEqual(
    own.map((p) => p.path),
    ['modes[0].arms.head.echoImage'],
  );
  assert.match(own[0]!.message, /cannot replace the image of kubernetes\.manifests\.server \(server\.yaml\), which is applied as written/);
  // The run's own image on the head arm measures the same thing twice.
  const same = problems(
    kind([{ name: 'baseline', arms: { head: { echoImage: 'example.test/app:1.0.0' } } }], { images: { echo: 'example.test/app:1.0.0' } }),
  );
  assert.match(same[0]!.message, /base and head have the same settings/);
  assert.match(
    problems(kind([{ name: 'baseline', echoImage: 'app:latest' }]))[0]!.message,
    /pinned by digest .* or by a version tag .* got "app:latest"/,
  );
});
