import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseSummary, SummaryFormatError } from '../../src/load/k6-summary.ts';
import { invalidReasons } from '../../src/load/validity.ts';

// Fixtures are real k6 summaries; test/fixtures/k6/capture.ts says how they were captured.
const fixture = (name: string) => readFileSync(new URL(`../fixtures/k6/${name}`, import.meta.url), 'utf8');

test('open-model summary: measured window only, exact percentiles, timeline', () => {
  const raw = JSON.parse(fixture('http-open.json'));
  const m = parseSummary(fixture('http-open.json'));
  const measured = raw.metrics['http_req_duration{scenario:measure}'].values;
  const latency = m.latencyMs!;
  const all = raw.metrics['http_req_duration'].values;
  assert.ok(all.count > measured.count, 'warm-up requests exist in the totals but are excluded');
  assert.equal(m.requests, measured.count);
  assert.equal(latency.p50, measured.med);
  assert.equal(latency.p99, measured['p(99)']);
  assert.equal(latency.p999, measured['p(99.9)']);
  assert.ok(latency.min <= latency.p50 && latency.p50 <= latency.p90 && latency.p90 <= latency.p99 && latency.p99 <= latency.max);
  assert.equal(m.durationS, 3);
  assert.ok(Math.abs(m.achievedRps - 200) < 5, `achieved ${m.achievedRps}`);
  assert.equal(m.droppedIterations, 0);
  assert.equal(m.statusCounts['200'], m.requests);
  assert.equal(m.failures, 0);
  assert.ok(m.bytesSent > 0 && m.bytesReceived > m.bytesSent);
  assert.equal(m.timeline.length, 3);
  assert.equal(
    m.timeline.reduce((n, p) => n + p.requests, 0),
    m.requests,
  );
  assert.deepEqual(
    m.timeline.map((p) => p.t),
    [0, 1, 2],
  );
});

test('failed requests: counted apart with their causes; latency over successes only', () => {
  const raw = JSON.parse(fixture('http-errors.json'));
  const m = parseSummary(fixture('http-errors.json'));
  const ok = raw.metrics['http_req_duration{scenario:measure,expected_response:true}'].values;
  assert.equal(m.requests, 201);
  assert.equal(m.failures, m.requests - ok.count);
  assert.equal(m.latencyMs!.p50, ok.med, 'percentiles are over successful requests only');
  assert.equal(m.latencyMs!.max, ok.max);
  assert.ok(m.failedLatencyMs && m.failedLatencyMs.max > 0, 'failed requests keep their own latency');
  assert.deepEqual(m.errorCauses, { 'HTTP 503': m.statusCounts['503'], 'connection reset': m.statusCounts['0'] });
  assert.equal(m.statusCounts['503']! + m.statusCounts['0']!, m.failures);
  assert.equal(
    m.timeline.reduce((n, p) => n + p.failures, 0),
    m.failures,
    'the timeline carries failures per bucket',
  );
  assert.equal(
    m.timeline.reduce((n, p) => n + p.requests, 0),
    m.requests,
  );
});

test('a summary with no successful request has no latency (null), never zeros', () => {
  const raw = JSON.parse(fixture('http-errors.json'));
  delete raw.metrics['http_req_duration{scenario:measure,expected_response:true}'];
  const m = parseSummary(JSON.stringify(raw));
  assert.equal(m.latencyMs, null);
  assert.equal(m.failures, m.requests);
});

test('closed-model POST summary', () => {
  const m = parseSummary(fixture('http-closed-post.json'));
  assert.ok(m.requests > 100);
  assert.equal(m.statusCounts['200'], m.requests);
  assert.ok(m.bytesSent > m.requests * 64, 'the 64-byte body was sent with every request');
});

test('k6 run with --no-thresholds (K6_ENGINE_ARGS) writes only the sub-metrics that saw samples, without threshold results: the same measurement', () => {
  // The fixtures were captured with thresholds evaluated: every declared sub-metric is there, a
  // count of 0 included. Without evaluation k6 reports only those that saw a sample.
  for (const name of ['http-open.json', 'http-errors.json', 'http-closed-post.json']) {
    const raw = JSON.parse(fixture(name)) as { metrics: Record<string, { values: { count?: number }; thresholds?: unknown }> };
    let dropped = 0;
    for (const [key, metric] of Object.entries(raw.metrics)) {
      delete metric.thresholds;
      if (key.includes('{') && metric.values.count === 0) {
        delete raw.metrics[key];
        dropped++;
      }
    }
    assert.ok(dropped > 10, `${name}: the unused status and error-code sub-metrics are gone (${dropped})`);
    assert.deepEqual(parseSummary(JSON.stringify(raw)), parseSummary(fixture(name)), name);
  }
});

test('a summary not written by our script is rejected with a reason', () => {
  assert.throws(() => parseSummary('{"metrics":{}}'), SummaryFormatError);
  assert.throws(() => parseSummary('not json'), /not JSON/);
});

test('validity rules', () => {
  const ok = { targetRps: 1000, achievedRps: 995, droppedIterations: 0, requests: 9950 };
  assert.deepEqual(invalidReasons(ok), []);
  assert.match(invalidReasons({ ...ok, droppedIterations: 3 })[0]!, /3 dropped iterations/);
  assert.match(
    invalidReasons({ ...ok, droppedIterations: 3, timeouts: 40, timeoutMs: 1000 })[0]!,
    /3 dropped iterations: 40 requests timed out after 1 s/,
    'timeouts are named as timeouts',
  );
  assert.doesNotMatch(invalidReasons({ ...ok, droppedIterations: 3, timeouts: 40 })[0]!, /on schedule/);
  assert.match(invalidReasons({ ...ok, achievedRps: 980 })[0]!, /98\.0% of the 1000 rps target/);
  assert.deepEqual(invalidReasons({ ...ok, achievedRps: 990 }), [], 'exactly 99% is valid');
  assert.match(invalidReasons({ ...ok, requests: 0, achievedRps: 0 })[0]!, /no requests/);
  assert.deepEqual(
    invalidReasons({ targetRps: null, achievedRps: 3, droppedIterations: 0, requests: 30 }),
    [],
    'closed model has no target',
  );
});

test('rate ceiling: the arithmetic, and a refusal that names the profile and the limit', async () => {
  const { rateCeiling, checkRateCeiling } = await import('../../src/load/ceiling.ts');
  const { validateConfig } = await import('../../src/config/validate.ts');
  assert.equal(rateCeiling(2, false), 10666, '2 × 0.8 ÷ 150 µs');
  assert.equal(rateCeiling(2, true), 5333, 'halved beside the local servers');
  const config = validateConfig({ modes: [{ name: 'a' }], load: [{ rate: 3000 }, { name: 'huge', rate: 6000 }] });
  assert.throws(() => checkRateCeiling(config.profiles, 2, true), /load\.rate 6000 \(profile "huge"\) .* ~150 µs .* at most 5333 rps/);
  assert.doesNotThrow(() => checkRateCeiling(config.profiles, 2, false));
});

test('VU pool: the larger of rate × expected latency and 0.5 s of arrivals (at most 200), no growth; an override is taken as is', async () => {
  const { sizeVus } = await import('../../src/load/vus.ts');
  assert.deepEqual(sizeVus(1000, 50), { preAllocated: 200, max: 200 }, "plain k6's 200");
  assert.deepEqual(sizeVus(2000, 50), { preAllocated: 200, max: 200 });
  assert.deepEqual(sizeVus(5000, 50), { preAllocated: 250, max: 250 }, "Little's law at 50 ms");
  assert.deepEqual(sizeVus(300, 5), { preAllocated: 150, max: 150 }, '0.5 s of arrivals');
  assert.deepEqual(sizeVus(5, 50), { preAllocated: 20, max: 20 }, 'at least 20');
  assert.deepEqual(sizeVus(100_000, 1000), { preAllocated: 5000, max: 5000 }, 'at most 5,000');
  assert.deepEqual(sizeVus(1000, 50, 7), { preAllocated: 7, max: 7 });
});
