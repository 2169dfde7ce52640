// The engine's k6 script does nothing per request but the request (k6/mesh-perf-lib.js): every
// figure a repetition shows comes from k6's built-in metrics through the summary. This checks,
// with real k6 against real servers, that the summary still carries every statistic of a
// repetition (every Measurement field, every latency statistic, every timeline field, iteration
// duration, the measured window) and that each equals what the same run's raw samples give:
// k6's own --out csv rows, one per sample, read independently here; the same for the pacer
// (k6/http-pacer.js on the k6 built with k6ext/), whose samples k6's own HTTP client records too.
// A field added to Measurement, LatencyMs or TimelinePoint fails to compile below until it is
// checked too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { validateConfig } from '../../src/config/validate.ts';
import { buildInvocation } from '../../src/load/engine.ts';
import { iterationMs, type Measurement, parseSummary } from '../../src/load/k6-summary.ts';
import { LocalK6Runner } from '../../src/load/local-runner.ts';
import { csvOutputArg } from '../../src/load/raw-samples.ts';
import type { ArrivalEngine } from '../../src/load/pacer-params.ts';
import { K6_ERROR_CODES } from '../../src/load/script.ts';
import { measuredWindow } from '../../src/load/window.ts';
import type { ModeTarget } from '../../src/load/types.ts';
import { buildPlan } from '../../src/plan/plan.ts';
import { LATENCY_STATS, type LatencyMs, type TimelinePoint } from '../../src/results/types.ts';
import { ensureK6 } from '../../src/tools/k6.ts';
import { pacerK6Path } from '../../src/tools/k6-pacer.ts';
import { silentLogger } from '../../src/util/log.ts';
import { withTempDir } from '../support/cli.ts';
import { startFortio } from '../support/fortio.ts';

/** Every figure of a repetition the summary gives: a new Measurement field must be listed (and checked). */
const MEASUREMENT_FIELDS = {
  durationS: true,
  achievedRps: true,
  droppedIterations: true,
  requests: true,
  failures: true,
  errorRate: true,
  statusCounts: true,
  errorCauses: true,
  failedLatencyMs: true,
  bytesSent: true,
  bytesReceived: true,
  latencyMs: true,
  timeline: true,
  lateSends: true,
} satisfies Record<keyof Measurement, true>;
const TIMELINE_FIELDS = { t: true, requests: true, failures: true, p50: true, p90: true, p99: true, max: true } satisfies Record<
  keyof TimelinePoint,
  true
>;

/** k6's CSV writes values with 6 decimals; the summary keeps k6's float64. */
const EPSILON_MS = 2e-6;

interface Sample {
  metric: string;
  time: number;
  value: number;
  tags: Record<string, string>;
}

function parseCsv(text: string): Sample[] {
  const [header, ...rows] = text.trim().split('\n');
  const names = header!.split(',');
  return rows.map((row) => {
    // Our values hold no comma or quote (system tags narrowed; extra_tags is "mp_bucket=3").
    const fields = row.split(',');
    assert.equal(fields.length, names.length, row);
    const tags: Record<string, string> = {};
    names.forEach((name, i) => {
      if (i > 2 && fields[i]) tags[name] = fields[i]!;
    });
    for (const pair of (tags.extra_tags ?? '').split('&').filter(Boolean)) {
      const [k, v] = pair.split('=');
      tags[k!] = v!;
    }
    return { metric: fields[0]!, time: Number(fields[1]), value: Number(fields[2]), tags };
  });
}

/** k6's TrendSink.P: sort, then interpolate linearly at i = p × (n − 1). */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 1) return sorted[0]!;
  const i = p * (sorted.length - 1);
  const lo = sorted[Math.floor(i)]!;
  const hi = sorted[Math.ceil(i)]!;
  return lo + (hi - lo) * (i - Math.floor(i));
}

function latency(values: number[]): LatencyMs {
  const s = [...values].sort((a, b) => a - b);
  return {
    min: s[0]!,
    mean: s.reduce((a, b) => a + b, 0) / s.length,
    p50: percentile(s, 0.5),
    p75: percentile(s, 0.75),
    p90: percentile(s, 0.9),
    p95: percentile(s, 0.95),
    p99: percentile(s, 0.99),
    p999: percentile(s, 0.999),
    max: s.at(-1)!,
  };
}

/** The measurement the raw samples of the measured scenario give, computed apart from the engine. */
function fromRaw(
  samples: Sample[],
  grpc: boolean,
  durationS: number,
  bucketMs: number,
): Required<Omit<Measurement, 'lateSends'>> & Pick<Measurement, 'lateSends'> {
  const measured = samples.filter((s) => s.tags.scenario === 'measure');
  const of = (metric: string) => measured.filter((s) => s.metric === metric);
  const requests = of(grpc ? 'grpc_req_duration' : 'http_req_duration');
  const ok = (s: Sample) => (grpc ? s.tags.status === '0' : s.tags.expected_response === 'true');
  const successes = requests.filter(ok);
  const failed = requests.filter((s) => !ok(s));
  const statusCounts: Record<string, number> = {};
  for (const s of grpc ? requests : of('http_reqs')) statusCounts[s.tags.status!] = (statusCounts[s.tags.status!] ?? 0) + 1;
  const errorCauses: Record<string, number> = {};
  for (const s of grpc ? [] : of('http_reqs')) {
    const cause =
      s.tags.status === '0'
        ? K6_ERROR_CODES[Number(s.tags.error_code)]
        : Number(s.tags.status) >= 400
          ? `HTTP ${s.tags.status}`
          : undefined;
    if (cause) errorCauses[cause] = (errorCauses[cause] ?? 0) + 1;
  }
  const buckets = new Map<number, Sample[]>();
  for (const s of requests) {
    const b = Number(s.tags.mp_bucket);
    assert.ok(Number.isInteger(b), `a measured request without its timeline bucket: ${JSON.stringify(s.tags)}`);
    buckets.set(b, [...(buckets.get(b) ?? []), s]);
  }
  const timeline = [...buckets.entries()]
    .sort(([a], [b]) => a - b)
    .map(([b, all]) => {
      const good = all.filter(ok).map((s) => s.value);
      const l = good.length > 0 ? latency(good) : undefined;
      return {
        t: (b * bucketMs) / 1000,
        requests: all.length,
        failures: all.length - good.length,
        p50: l?.p50 ?? 0,
        p90: l?.p90 ?? 0,
        p99: l?.p99 ?? 0,
        max: l?.max ?? 0,
      };
    });
  const sum = (metric: string) => of(metric).reduce((n, s) => n + s.value, 0);
  const lag = of('mesh_perf_send_lag_max').map((s) => s.value);
  return {
    ...(lag.length > 0 ? { lateSends: { count: sum('mesh_perf_late_sends'), maxLagMs: Math.max(...lag) } } : {}),
    durationS,
    achievedRps: requests.length / durationS,
    droppedIterations: sum('dropped_iterations'),
    requests: requests.length,
    failures: failed.length,
    errorRate: failed.length / requests.length,
    statusCounts,
    errorCauses,
    failedLatencyMs: latency(failed.map((s) => s.value)),
    bytesSent: sum('data_sent'),
    bytesReceived: sum('data_received'),
    latencyMs: latency(successes.map((s) => s.value)),
    timeline,
  };
}

function assertLatency(actual: LatencyMs | null | undefined, expected: LatencyMs, what: string): void {
  assert.ok(actual, `${what}: missing from the summary`);
  for (const stat of LATENCY_STATS)
    assert.ok(
      Math.abs(actual[stat] - expected[stat]) <= EPSILON_MS,
      `${what} ${stat}: summary ${actual[stat]}, raw samples ${expected[stat]}`,
    );
}

/** One repetition of the engine's own script, with k6's raw samples of the same run beside it. */
async function engineRun(load: Record<string, unknown>, target: ModeTarget, engine: ArrivalEngine = 'arrival-rate') {
  const mode = target.grpc ? { name: 'm', grpc: target.grpc } : { name: 'm', url: target.url };
  const config = validateConfig({ platform: 'endpoints', modes: [mode], load });
  const trial = buildPlan(config, 1).trials[0]!;
  const k6 = engine === 'pacer' ? { path: pacerK6Path() } : await ensureK6(silentLogger, { pacer: false });
  return withTempDir(async (dir) => {
    const invocation = buildInvocation(trial, target, process.cwd(), { engine });
    assert.equal(invocation.entry, engine === 'pacer' ? 'http-pacer.js' : target.grpc ? 'grpc.js' : 'http.js');
    const csv = join(dir, 'raw.csv');
    invocation.args = [...invocation.args, '--out', csvOutputArg(csv)];
    const outcome = await new LocalK6Runner(k6.path).run(invocation, () => {}, new AbortController().signal);
    assert.ok(outcome.summary, outcome.stderrTail);
    const params = JSON.parse(invocation.env.MESH_PERF_PARAMS!) as { bucketMs: number };
    return { summary: outcome.summary, samples: parseCsv(await readFile(csv, 'utf8')), profile: trial.profile, bucketMs: params.bucketMs };
  });
}

function assertComplete(run: Awaited<ReturnType<typeof engineRun>>, grpc: boolean): void {
  const m = parseSummary(run.summary);
  const expected = fromRaw(run.samples, grpc, run.profile.durationMs / 1000, run.bucketMs);
  assert.ok(expected.requests > 0 && expected.timeline.length >= 2, 'the run measured requests over several seconds');
  for (const field of Object.keys(MEASUREMENT_FIELDS) as (keyof Measurement)[]) {
    const [actual, want] = [m[field], expected[field]];
    if (field === 'latencyMs') assertLatency(m.latencyMs, expected.latencyMs!, 'latency of successes');
    else if (field === 'failedLatencyMs') {
      if (expected.failures > 0) assertLatency(m.failedLatencyMs, expected.failedLatencyMs, 'latency of failures');
      else assert.equal(m.failedLatencyMs, undefined);
    } else if (field === 'errorCauses') assert.deepEqual(actual ?? {}, want, 'error causes');
    else if (field === 'lateSends') assert.deepEqual(actual, want, 'late sends (the pacer only)');
    else if (field === 'timeline') {
      assert.equal(m.timeline.length, expected.timeline.length, 'timeline buckets');
      m.timeline.forEach((point, i) => {
        for (const key of Object.keys(TIMELINE_FIELDS) as (keyof TimelinePoint)[])
          assert.ok(
            Math.abs(point[key] - expected.timeline[i]![key]) <= EPSILON_MS,
            `timeline[${i}].${key}: summary ${point[key]}, raw ${expected.timeline[i]![key]}`,
          );
      });
    } else if (typeof want === 'number')
      assert.ok(Math.abs((actual as number) - want) <= 1e-9, `${field}: summary ${actual}, raw samples ${want}`);
    else assert.deepEqual(actual, want, field);
  }
  const iterations = run.samples.filter((s) => s.metric === 'iteration_duration' && s.tags.scenario === 'measure').map((s) => s.value);
  assertLatency(iterationMs(run.summary), latency(iterations), 'iteration duration');
  // The measured window the resource samples are kept to: from the first measured request's start.
  const window = measuredWindow(run.summary, run.profile);
  const requests = run.samples.filter((s) => s.tags.scenario === 'measure' && s.metric.endsWith('_req_duration'));
  const firstStart = Math.min(...requests.map((s) => s.time - s.value));
  assert.ok(
    window && Math.abs(window.startMs - firstStart) < 300,
    `window starts ${window?.startMs}, first measured request ${firstStart}`,
  );
}

/**
 * Every third request 503, every tenth too slow for the 300 ms timeout (a network error k6 names
 * by code): statuses, causes and the latency of failures. (A reset connection would not do: Go's
 * HTTP client retries a GET whose reused connection was reset.)
 */
async function failingHttpRun(engine: ArrivalEngine) {
  let n = 0;
  const server = createServer((_req, res) => {
    n++;
    res.statusCode = n % 3 === 0 ? 503 : 200;
    if (n % 10 === 0) setTimeout(() => res.end('x'), 1000).unref();
    else res.end('x');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const load = { rate: 100, duration: '3s', warmup: '1s', repetitions: 1, timeout: '300ms' };
    const run = await engineRun(load, { mode: 'm', url, env: {}, description: 'failing' }, engine);
    const m = parseSummary(run.summary);
    assert.ok(m.statusCounts['503']! > 0 && (m.errorCauses?.timeout ?? 0) > 0, JSON.stringify(m.errorCauses));
    assertComplete(run, false);
    return run;
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

test('HTTP with failures: the summary carries every statistic of a repetition, equal to the raw samples', { timeout: 90_000 }, async () => {
  await failingHttpRun('arrival-rate');
});

test("HTTP with failures, paced by mesh-perf's pacer: the same statistics, equal to the raw samples", { timeout: 90_000 }, async () => {
  const run = await failingHttpRun('pacer');
  const m = parseSummary(run.summary);
  // The pacer's own account: present, and its requests were k6's (iteration per request, no JS iteration in the window).
  assert.ok(m.lateSends && m.lateSends.maxLagMs >= 0, JSON.stringify(m.lateSends));
  const iterations = run.samples.filter((s) => s.metric === 'iteration_duration' && s.tags.scenario === 'measure');
  assert.equal(iterations.length, m.requests, 'one iteration_duration sample per measured request');
  assert.equal(m.requests, 300, 'the measured scenario sent every arrival of its schedule (100 rps × 3 s)');
});

test('gRPC: the summary carries every statistic of a repetition, equal to the raw samples', { timeout: 90_000 }, async () => {
  const fortio = await startFortio();
  try {
    const run = await engineRun(
      { rate: 100, duration: '3s', warmup: '1s', repetitions: 1, protocol: 'grpc', payloadBytes: 32 },
      { mode: 'm', grpc: `127.0.0.1:${fortio.grpcPort}`, env: {}, description: 'fortio' },
    );
    assertComplete(run, true);
  } finally {
    await fortio.stop();
  }
});
