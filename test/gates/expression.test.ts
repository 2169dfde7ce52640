// Table tests of the gate expression parser, and of its use in config validation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseGateExpression, type GateExpression } from '../../src/gates/expression.ts';
import { ConfigError, validateConfig } from '../../src/config/validate.ts';

const good: [string, Partial<GateExpression>][] = [
  ['p(95) < 250ms', { kind: 'threshold', metric: 'p95', measure: 'value', op: '<', limit: 250, scope: {} }],
  ['p(95)<250', { metric: 'p95', limit: 250 }],
  ['p(99.9) <= 1s', { metric: 'p999', op: '<=', limit: 1000 }],
  ['med < 800us', { metric: 'p50', limit: 0.8 }],
  ['avg < 2.5 ms', { metric: 'mean', limit: 2.5 }],
  ['max < 0.5s', { metric: 'max', limit: 500 }],
  ['error_rate < 1%', { metric: 'errorRate', limit: 0.01 }],
  ['http_req_failed < 0.01', { metric: 'errorRate', limit: 0.01 }],
  ['achieved_rps >= 99%', { metric: 'achievedRps', measure: 'fraction-of-target', op: '>=', limit: 0.99 }],
  ['achieved_rps > 950rps', { metric: 'achievedRps', measure: 'value', op: '>', limit: 950 }],
  ['mode=linkerd: p(99) < 5ms', { scope: { modes: ['linkerd'] }, metric: 'p99', limit: 5 }],
  [
    'mode=linkerd,istio-ambient profile=1000rps: p(90) < 3ms',
    { scope: { modes: ['linkerd', 'istio-ambient'], profiles: ['1000rps'] }, metric: 'p90' },
  ],
  ['overhead.p99 < 2ms', { kind: 'overhead', metric: 'p99', measure: 'difference', limit: 2 }],
  ['overhead.p(50) < 10%', { kind: 'overhead', metric: 'p50', measure: 'relative', limit: 0.1 }],
  ['overhead_ratio.p90 < 1.5', { kind: 'overhead', metric: 'p90', measure: 'ratio', limit: 1.5 }],
  ['overhead_ratio.p90 < 1.5x', { measure: 'ratio', limit: 1.5 }],
  ['mode=istio-sidecar: overhead.p99 < 300us', { kind: 'overhead', scope: { modes: ['istio-sidecar'] }, limit: 0.3 }],
  ['cpu_per_1000rps < 250m', { metric: 'cpuPer1000Rps', limit: 250 }],
  ['cpu_per_1000rps < 0.2cores', { metric: 'cpuPer1000Rps', limit: 200 }],
  ['overhead.cpu_per_1000rps < 200m', { kind: 'overhead', metric: 'cpuPer1000Rps', measure: 'difference', limit: 200 }],
  ['memory_per_1000rps < 1GiB', { metric: 'memoryMiBPer1000Rps', limit: 1024 }],
];

for (const [text, expected] of good) {
  test(`gate parses: ${text}`, () => {
    const result = parseGateExpression(text);
    assert.ok(result.ok, result.ok ? '' : result.error);
    for (const [key, value] of Object.entries(expected)) {
      const actual: unknown = (result.value as unknown as Record<string, unknown>)[key];
      if (typeof value === 'number') assert.ok(Math.abs((actual as number) - value) < 1e-9, `${key}: ${String(actual)} ≠ ${value}`);
      else assert.deepEqual(actual, value, key);
    }
  });
}

const bad: [string, RegExp][] = [
  ['', /empty/],
  ['p(95) 250ms', /no comparison found/],
  ['p(95) == 250ms', /operator "==" is not supported; use <, <=, > or >=/],
  ['p(95) < ', /missing the value after "<"/],
  ['p(97) < 250ms', /percentile p\(97\) is not recorded; use one of p\(50\)/],
  ['latency < 250ms', /unknown metric "latency"/],
  ['p(95) < 250 parsecs', /unknown duration unit "parsecs"; use us, ms or s/],
  ['p(95) < 5%', /latency threshold needs a duration/],
  ['p(95) < fast', /"fast" is not a number with an optional unit/],
  ['error_rate < 5', /error_rate 5 is more than 1 \(100%\); did you mean 5%\?/],
  ['error_rate < 1ms', /error_rate takes a percentage or a fraction/],
  ['achieved_rps >= 99ms', /achieved_rps takes a percentage of the target rate/],
  ['overhead_ratio.p90 < 50%', /overhead_ratio is a plain ratio/],
  ['overhead_ratio.p90 < 0', /overhead_ratio must be > 0/],
  ['overhead.error_rate < 1%', /overhead budgets apply to latency statistics/],
  ['overhead < 2ms', /needs a statistic, e\.g\. overhead\.p99/],
  ['cpu_per_1000rps < 250', /CPU needs a unit/],
  ['memory_per_1000rps < 40', /memory needs a unit/],
  ['node=a: p(95) < 1ms', /unknown scope "node"/],
  ['linkerd: p(95) < 1ms', /"linkerd" before ":" is not a scope; expected mode=NAME/],
  ['http_req_duration: p(95)<250', /latency gates always apply to request duration/],
  ['mode=linkerd: ', /nothing after the scope/],
];

for (const [text, message] of bad) {
  test(`gate is rejected with a message naming it: ${JSON.stringify(text)}`, () => {
    const result = parseGateExpression(text);
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.match(result.error, message);
    assert.ok(result.error.includes(JSON.stringify(text)), `the message names the expression: ${result.error}`);
  });
}

test('a bad gate expression is a config error naming the field and the expression', () => {
  const raw = {
    modes: [{ name: 'baseline' }, { name: 'linkerd' }],
    load: { rate: 100 },
    gates: { thresholds: ['p(95) < 250ms', 'p(95) << 250ms'], overhead: ['overhead.p99 < 2 lightyears'] },
  };
  assert.throws(
    () => validateConfig(raw, 'mesh-perf.yaml'),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      const problems = error.problems.map((p) => `${p.path}: ${p.message}`);
      assert.equal(problems.length, 2, problems.join('\n'));
      assert.match(problems[0]!, /^gates\.thresholds\[1\]: cannot read gate "p\(95\) << 250ms"/);
      assert.match(problems[1]!, /^gates\.overhead\[0\]: cannot read gate "overhead\.p99 < 2 lightyears": unknown duration unit/);
      return true;
    },
  );
});

test('good gate expressions validate, and the regression defaults hold', () => {
  const config = validateConfig({
    modes: [{ name: 'baseline' }],
    load: { rate: 100 },
    gates: { thresholds: ['p(95) < 250ms', 'error_rate < 1%'] },
  });
  assert.deepEqual(config.gates.thresholds, ['p(95) < 250ms', 'error_rate < 1%']);
  assert.equal(config.gates.regression.minEffectPct, 5);
  assert.equal(config.gates.regression.minEffectMs, 0.05);
  assert.equal(config.gates.regression.basis, 'auto');
});

test('gate scopes naming unknown modes or profiles are reported with the path and the names that exist', async () => {
  const { gateScopeProblems } = await import('../../src/gates/expression.ts');
  const problems = gateScopeProblems(
    { thresholds: ['mode=linkrd: p(99) < 5ms', 'p(95) < 1s'], overhead: ['profile=2000rps: overhead.p50 < 1ms'] },
    ['baseline', 'linkerd'],
    ['1000rps'],
  );
  assert.deepEqual(problems, [
    {
      path: 'gates.thresholds[0]',
      message: 'gate "mode=linkrd: p(99) < 5ms" names mode "linkrd", which is not configured (modes: baseline, linkerd)',
    },
    {
      path: 'gates.overhead[0]',
      message: 'gate "profile=2000rps: overhead.p50 < 1ms" names load profile "2000rps", which is not configured (profiles: 1000rps)',
    },
  ]);
});
