// The whole-job estimate `mesh-perf plan` prints (issue 54: "(setup not included)" left a user no
// way to budget runner minutes): per platform, the steps around the load from the one table of
// measured step times, each with where it was measured.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateConfig } from '../../src/config/validate.ts';
import { jobEstimate, jobShape } from '../../src/plan/job-estimate.ts';
import { jobSteps, STEP_TIMES } from '../../src/plan/step-times.ts';
import { jobEstimateText } from '../../src/cli/job-estimate-text.ts';

const config = (raw: Record<string, unknown>) => validateConfig({ load: { rate: 100, duration: '60s', repetitions: 3 }, ...raw });
const steps = (raw: Record<string, unknown>) => {
  const { before, after } = jobSteps(jobShape(config(raw)));
  return [...before, ...after].map((s) => `${s.label} ${s.seconds}`);
};

test('every step time says where it was measured, and docs/cli.md lists it as the table has it', () => {
  const docs = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'cli.md'), 'utf8');
  for (const [name, time] of Object.entries(STEP_TIMES)) {
    assert.ok(time.seconds > 0, name);
    assert.ok(time.source.length > 40, `${name}: a source, not a guess`);
    assert.ok(
      docs.includes(` | ${time.seconds} | ${time.source} |`),
      `docs/cli.md's step table lacks ${name} as src/plan/step-times.ts has it`,
    );
  }
});

test('kind: create, one install per mesh (and per Istio revision), the modes, delete; kubeconfig the same without the cluster', () => {
  const modes = [{ name: 'baseline' }, { name: 'istio-ambient' }, { name: 'istio-sidecar' }, { name: 'linkerd' }];
  assert.deepEqual(steps({ platform: 'kind', modes }), [
    'create the kind cluster 45',
    'install Istio 25',
    'install Linkerd 55',
    'workloads of 4 modes 20',
    'delete the cluster 5',
  ]);
  assert.deepEqual(steps({ platform: 'kubeconfig', modes: [{ name: 'baseline' }, { name: 'istio-ambient' }] }), [
    'install Istio 25',
    'workloads of 2 modes 10',
  ]);
  // A mode with its own control plane (an Istio revision) installs one more.
  assert.deepEqual(
    steps({
      platform: 'kind',
      modes: [{ name: 'baseline' }, { name: 'istio-sidecar' }, { name: 'canary', mesh: 'istio-sidecar', istio: { version: '1.27.1' } }],
    }),
    ['create the kind cluster 45', 'install Istio (2 control planes) 50', 'workloads of 3 modes 15', 'delete the cluster 5'],
  );
  assert.deepEqual(
    steps({ platform: 'kind', modes: [{ name: 'baseline' }, { name: 'mine', mesh: 'existing', namespaceLabels: { a: 'b' } }] }).slice(1, 2),
    ['workloads of 2 modes 10'],
  );
});

test('local: the modes start; endpoints: the load alone', () => {
  assert.deepEqual(steps({ platform: 'local', modes: [{ name: 'a' }, { name: 'b', local: { hops: 1 } }] }), ['start 2 modes 0.8']);
  assert.deepEqual(steps({ platform: 'endpoints', modes: [{ name: 'a', url: 'http://127.0.0.1:1/' }] }), []);
});

test('the estimate adds the steps to the load, and says so in one sentence with a range under repetitions auto', () => {
  const kind = config({ platform: 'kind', modes: [{ name: 'baseline' }, { name: 'istio-ambient' }] });
  const fixed = jobEstimate(kind, { first: 390, max: 390 });
  assert.deepEqual(fixed.seconds, { first: 45 + 25 + 10 + 390 + 5, max: 45 + 25 + 10 + 390 + 5 });
  assert.equal(
    jobEstimateText(fixed),
    'Whole job on kind, estimated: ~7m 55s: create the kind cluster ~45s, install Istio ~25s, workloads of 2 modes ~10s, load ~6m 30s, delete the cluster ~5s; step times as measured on a 2-core VM (docs/cli.md#what-a-whole-job-takes).',
  );
  const auto = jobEstimate(kind, { first: 390, max: 1170 });
  assert.match(
    jobEstimateText(auto),
    /^Whole job on kind, estimated: ~7m 55s \(up to ~20m 55s if load\.repetitions auto runs to its budget\): .* load ~6m 30s to ~19m 30s,/,
  );
  const endpoints = config({ platform: 'endpoints', modes: [{ name: 'a', url: 'http://127.0.0.1:1/' }] });
  assert.equal(
    jobEstimateText(jobEstimate(endpoints, { first: 60, max: 60 })),
    "Whole job on endpoints, estimated: ~1m, the load alone (each URL's connection check takes under a second).",
  );
});
