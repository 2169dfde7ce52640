// mesh-perf's pacer (k6ext/, k6/http-pacer.js): which profiles it sends, the schedule it is given
// (the same one k6's arrival-rate executor would run), how the engine is chosen from the k6 at
// hand and load.pacer, and what `k6 version` says about a k6. Pure; the pacer itself runs with
// real k6 in summary-complete.test.ts and pacer-e2e.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, validateConfig } from '../../src/config/validate.ts';
import { chooseArrivalEngines } from '../../src/load/pacer-choice.ts';
import { type ArrivalEngine, PACER_VERSION } from '../../src/load/pacer-params.ts';
import { renderScript } from '../../src/load/script.ts';
import { pacerWorkers, sizeVus } from '../../src/load/vus.ts';
import { measuredStartMs } from '../../src/load/window.ts';
import { buildPlan } from '../../src/plan/plan.ts';
import { renderSummaryMarkdown } from '../../src/report/summary-markdown.ts';
import { buildRunView } from '../../src/report/view.ts';
import { parseK6Version } from '../../src/tools/k6.ts';
import { EnvironmentError } from '../../src/util/errors.ts';
import { buildRunResult } from '../support/results-fixture.ts';

const TARGET = { mode: 'm', url: 'http://127.0.0.1:1/', env: {}, description: '' };
const modeFor = (load: Record<string, unknown>) =>
  load.protocol === 'grpc' ? { name: 'm', grpc: '127.0.0.1:2' } : { name: 'm', url: TARGET.url };

function profileOf(load: Record<string, unknown>) {
  const config = validateConfig({ platform: 'endpoints', modes: [modeFor(load)], load: { repetitions: 1, ...load } });
  return buildPlan(config, 1).trials[0]!.profile;
}

test('the pacer is given the schedule k6 would run: warm-up, handover, measured scenario, rate and timeline; its bound', () => {
  const profile = profileOf({ rate: 2000, duration: '10s', warmup: '2s', timeout: '3s' });
  const paced = renderScript(profile, TARGET, { engine: 'pacer' });
  const stock = renderScript(profile, TARGET, { engine: 'arrival-rate' });
  assert.equal(paced.entry, 'http-pacer.js');
  assert.equal(stock.entry, 'http.js');
  assert.ok(paced.files['http-pacer.js']?.includes("from 'k6/x/meshperf'") && paced.files['mesh-perf-lib.js']);
  const p = paced.params.pacer!;
  const { warmup, measure } = stock.params.scenarios;
  assert.equal(p.version, PACER_VERSION);
  assert.equal(p.rate, 2000);
  // The stall budget k6's pool caps at 200 VUs, whole: half a second of arrivals.
  assert.equal(measure!.maxVUs, sizeVus(2000, 50).max);
  assert.equal(p.maxWorkers, 1000);
  assert.equal(pacerWorkers(2000, 50), 1000);
  assert.equal(pacerWorkers(100, 2000), 200, 'a slow target: rate × expected latency');
  assert.equal(pacerWorkers(10, 50), 20, 'at least 20');
  assert.equal(pacerWorkers(2000, 50, 7), 7, 'load.vus sets it');
  assert.deepEqual(p.phases, [
    { scenario: 'warmup', startMs: 0, durationMs: 2000, buckets: 0, bucketMs: 0 },
    {
      scenario: 'measure',
      startMs: measuredStartMs(2000),
      durationMs: 10_000,
      buckets: stock.params.buckets,
      bucketMs: stock.params.bucketMs,
    },
  ]);
  assert.equal(`${p.phases[1]!.startMs / 1000}s`, measure!.startTime);
  assert.equal(`${p.phases[0]!.durationMs / 1000}s`, warmup!.duration);
  // One pacing VU and one iteration, long enough for the last requests' timeout.
  assert.deepEqual(paced.params.scenarios, {
    pacer: { executor: 'per-vu-iterations', vus: 1, iterations: 1, maxDuration: '16.1s', gracefulStop: '5s' },
  });
  // Everything else the script reads is the same.
  const { scenarios: _a, pacer: _b, ...pacedRest } = paced.params;
  const { scenarios: _c, ...stockRest } = stock.params;
  assert.deepEqual(pacedRest, stockRest);
});

test('a group of k6 instances gets one pacing VU each; k6 hands one to each execution segment', () => {
  const profile = profileOf({ rate: 8000, duration: '5s', warmup: '1s' });
  assert.equal(renderScript(profile, TARGET, { engine: 'pacer', instances: 4 }).params.scenarios.pacer!.vus, 4);
  // No warm-up: the measured phase starts at once.
  const bare = renderScript(profileOf({ rate: 100, duration: '3s', warmup: '0s' }), TARGET, { engine: 'pacer' }).params.pacer!;
  assert.deepEqual(
    bare.phases.map((ph) => [ph.scenario, ph.startMs]),
    [['measure', 0]],
  );
});

test("closed-model, gRPC and a user's own scripts keep k6's executors whatever the engine", () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ model: 'closed', vus: 5, duration: '3s' }, 'http.js'],
    [{ rate: 100, duration: '3s', protocol: 'grpc' }, 'grpc.js'],
  ];
  for (const [load, entry] of cases) {
    const rendered = renderScript(profileOf(load), { ...TARGET, grpc: '127.0.0.1:1' }, { engine: 'pacer' });
    assert.equal(rendered.entry, entry, JSON.stringify(load));
    assert.equal(rendered.params.pacer, undefined);
  }
});

test('`k6 version` output: a stock k6 lists no extension, the pacer build lists k6/x/meshperf', () => {
  assert.deepEqual(parseK6Version('k6 v1.4.2 (go1.24.9, linux/amd64)\n', 'k6'), { version: '1.4.2', jsModules: [] });
  const custom = 'k6 v1.4.2 (go1.26.8, linux/amd64)\nExtensions:\n  github.com/org/mesh-perf-action/k6ext , k6/x/meshperf [js]\n';
  assert.deepEqual(parseK6Version(custom, 'k6'), { version: '1.4.2', jsModules: ['k6/x/meshperf'] });
  const several = `${custom}  github.com/grafana/xk6-faker v0.4.0, k6/x/faker [js]\n  github.com/grafana/xk6-dashboard v0.7.0, dashboard [output]\n`;
  assert.deepEqual(parseK6Version(several, 'k6').jsModules, ['k6/x/meshperf', 'k6/x/faker']);
  assert.throws(() => parseK6Version('not k6', '/bin/false'), /\/bin\/false version printed "not k6"; expected "k6 v1.x.y"/);
});

interface Warned {
  warnings: string[];
  warn: (m: string) => void;
}
const logger = (): Warned => {
  const warnings: string[] = [];
  return { warnings, warn: (m) => warnings.push(m) };
};
const runner = (version: string | undefined) => ({ pacer: async () => ({ version, where: 'the k6 at /opt/k6' }) });
const engines = (choice: { engines: ReadonlyMap<string, ArrivalEngine> }) => Object.fromEntries(choice.engines);

test('auto: the pacer where the k6 has the pinned one; otherwise k6’s executor, said once with how to get it', async () => {
  const profiles = [
    profileOf({ name: 'web', rate: 500, duration: '3s' }),
    { ...profileOf({ name: 'web', rate: 500, duration: '3s' }), name: 'rpc', protocol: 'grpc' as const },
  ];
  const log = logger();
  const right = await chooseArrivalEngines(profiles, runner(PACER_VERSION), log);
  assert.deepEqual(engines(right), { web: 'pacer', rpc: 'arrival-rate' });
  assert.equal(right.pacerVersion, PACER_VERSION);
  assert.deepEqual(log.warnings, []);
  for (const [found, said] of [
    [
      undefined,
      /the k6 at \/opt\/k6 is a k6 without mesh-perf's pacer \(k6\/x\/meshperf\): the open-model HTTP profiles run on k6's arrival-rate executor/,
    ],
    [
      '0.0.9',
      new RegExp(`the k6 at /opt/k6 has mesh-perf's pacer 0\\.0\\.9, and this mesh-perf needs ${PACER_VERSION.replace(/\./g, '\\.')}`),
    ],
  ] as const) {
    const l = logger();
    const choice = await chooseArrivalEngines(profiles, runner(found), l);
    assert.deepEqual(engines(choice), { web: 'arrival-rate', rpc: 'arrival-rate' });
    assert.equal(choice.pacerVersion, undefined);
    assert.equal(l.warnings.length, 1);
    assert.match(l.warnings[0]!, said);
    assert.match(
      l.warnings[0]!,
      /unset K6_PATH so mesh-perf uses its pinned k6, which has the pacer \(downloaded, or built from k6ext\/ .*scripts\/install-test-tools\.sh k6-pacer\)/,
    );
  }
  // A runner that cannot run the pacer at all: k6's executor, with nothing to say (no k6 to change).
  const elsewhere = logger();
  assert.deepEqual(engines(await chooseArrivalEngines(profiles, {}, elsewhere)), { web: 'arrival-rate', rpc: 'arrival-rate' });
  assert.deepEqual(elsewhere.warnings, []);
  await assert.rejects(
    chooseArrivalEngines([{ ...profiles[0]!, pacer: 'on' }], {}, elsewhere),
    /this platform's k6 is a k6 without mesh-perf's pacer/,
  );
});

test('on: a k6 without the pinned pacer is an environment error naming the k6 and how to get it; off: never asked', async () => {
  const on = [profileOf({ name: 'web', rate: 500, duration: '3s', pacer: 'on' })];
  await assert.rejects(chooseArrivalEngines(on, runner(undefined), logger()), (error: unknown) => {
    assert.ok(error instanceof EnvironmentError);
    assert.match(
      (error as Error).message,
      /^load\.pacer is "on" \(profile "web"\), but the k6 at \/opt\/k6 is a k6 without mesh-perf's pacer \(k6\/x\/meshperf\): unset K6_PATH .*; or set load\.pacer: auto/,
    );
    return true;
  });
  assert.deepEqual(engines(await chooseArrivalEngines(on, runner(PACER_VERSION), logger())), { web: 'pacer' });
  let asked = false;
  const off = [profileOf({ name: 'web', rate: 500, duration: '3s', pacer: 'off' })];
  const asking = {
    pacer: async () => {
      asked = true;
      return { version: PACER_VERSION, where: '' };
    },
  };
  const choice = await chooseArrivalEngines(off, asking, logger());
  assert.deepEqual(engines(choice), { web: 'arrival-rate' });
  assert.equal(asked, false, 'no profile wants the pacer: the k6 is not inspected');
});

test('load.pacer: "on" only where the pacer can send the arrivals; auto is the default', () => {
  assert.equal(profileOf({ rate: 10, duration: '1s' }).pacer, 'auto');
  for (const [load, why] of [
    [
      { rate: 10, protocol: 'grpc', pacer: 'on' },
      /load\.pacer: "on" requires the pacer, which sends open-model HTTP arrivals only: grpc calls run on k6's own client/,
    ],
    [{ model: 'closed', vus: 2, pacer: 'on' }, /load\.pacer: "on" requires the pacer.*a closed model runs on k6's constant-vus executor/],
    [
      { rate: 10, script: 'mine.js', pacer: 'on' },
      /load\.pacer: "on" requires the pacer.*a script of your own \(load\.script "mine\.js"\) runs as written/,
    ],
    [{ rate: 10, pacer: 'yes' }, /load\.pacer/],
  ] as const) {
    assert.throws(
      () => validateConfig({ platform: 'endpoints', modes: [modeFor(load)], load: load }),
      (error: unknown) => error instanceof ConfigError && why.test((error as Error).message),
      JSON.stringify(load),
    );
  }
});

test("summary.md's footer names the engine: k6 alone, or k6 with mesh-perf's pacer and its version", () => {
  const result = buildRunResult({ seed: 3, repetitions: 1 });
  result.run.tools = { k6: '1.4.2' };
  assert.match(renderSummaryMarkdown(buildRunView(result)), /· k6 1\.4\.2 · seed/);
  result.run.tools['k6 pacer'] = PACER_VERSION;
  assert.match(
    renderSummaryMarkdown(buildRunView(result)),
    new RegExp(`· k6 1\\.4\\.2 with mesh-perf's pacer ${PACER_VERSION.replace(/\./g, '\\.')} · seed`),
  );
});
