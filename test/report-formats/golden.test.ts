// Golden files: every source-benchmark format rendered from a realistic run (several repetitions, an invalid
// repetition, failed requests, resource samples). A change to any format shows up as a diff of
// the files in golden/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderAmbientCsv, renderAmbientTable } from '../../src/report/formats/ambient.ts';
import { renderFortioRuns } from '../../src/report/formats/fortio-runs.ts';
import { renderIstioSizing } from '../../src/report/formats/istio-sizing.ts';
import { renderKymaTables } from '../../src/report/formats/kyma.ts';
import { renderUdsReport } from '../../src/report/formats/uds.ts';
import { renderSourceFormats } from '../../src/report/formats/index.ts';
import { assertGolden } from './golden.ts';
import { meshResources, realisticRun } from './fixture.ts';
import { buildRunView } from '../../src/report/view.ts';

const ambient = () =>
  realisticRun({
    suite: 'ambient-modes',
    preset: 'ambient-modes',
    seed: 3,
    modes: ['baseline', 'istio-sidecar', 'linkerd', 'istio-ambient', 'istio-waypoint'],
    profiles: [{ name: '200rps', model: 'open', rate: 200, duration: '10s', warmup: '5s', repetitions: 3 }],
    repetitions: 3,
    durationS: 10,
    p50: 0.95,
    invalid: { mode: 'linkerd', profile: '200rps', block: 2 },
  });

const uds = () =>
  realisticRun({
    suite: 'uds-scale',
    preset: 'uds-scale',
    seed: 4,
    modes: ['istio-sidecar'],
    // Two of the preset's eight scenarios: each profile carries its pod count.
    profiles: [
      { name: '1pod-20rps', model: 'open', rate: 20, duration: '5m', repetitions: 1, replicas: 1 },
      { name: '10pods-50rps', model: 'open', rate: 50, duration: '5m', repetitions: 1, replicas: 10 },
    ],
    repetitions: 1,
    durationS: 300,
    p50: 0.8,
    kubernetes: { replicas: 1, ingress: { replicas: 1, tls: true } },
    resources: meshResources,
    failures: { mode: 'istio-sidecar', profile: '10pods-50rps', block: 1, status: '503', count: 3 },
    bytesPerRequest: [96, 615],
  });

const kyma = () =>
  realisticRun({
    suite: 'kyma-sidecar',
    preset: 'kyma-sidecar',
    seed: 0,
    modes: ['no-sidecar', 'sidecar'],
    profiles: [
      { name: 'get', model: 'closed', vus: 500, duration: '1m', repetitions: 2 },
      { name: 'post', model: 'closed', vus: 500, duration: '1m', repetitions: 2 },
    ],
    repetitions: 2,
    durationS: 60,
    p50: 67,
    failures: { mode: 'sidecar', profile: 'post', block: 2, status: '503', count: 41 },
    bytesPerRequest: [78, 934],
    iterations: true,
  });

const fortio = () =>
  realisticRun({
    suite: 'istio-linkerd-fortio',
    preset: 'istio-linkerd-fortio',
    seed: 1,
    modes: ['baseline', 'linkerd', 'istio-sidecar'],
    profiles: [
      { name: 'http', model: 'open', rate: 100, duration: '10s', repetitions: 3, protocol: 'http' },
      { name: 'grpc', model: 'open', rate: 100, duration: '10s', repetitions: 3, protocol: 'grpc' },
    ],
    repetitions: 3,
    durationS: 10,
    p50: 2.1,
    resources: meshResources,
  });

const synthetic = () =>
  realisticRun({
    suite: 'istio-synthetic',
    preset: 'istio-synthetic',
    seed: 2,
    modes: ['baseline', 'istio-sidecar'],
    profiles: [{ name: '1000rps', model: 'open', rate: 1000, duration: '2m', warmup: '30s', repetitions: 3 }],
    repetitions: 3,
    durationS: 120,
    p50: 0.62,
    resources: meshResources,
  });

test('ambient-modes CSV and plain table (golden)', () => {
  assertGolden('ambient-modes.csv', renderAmbientCsv(buildRunView(ambient())));
  assertGolden('ambient-modes.txt', renderAmbientTable(buildRunView(ambient())));
});

test('uds-scale report: a heading per pod count, vegeta blocks with a 503 in the error set, namespace tables (golden)', () => {
  const text = renderUdsReport(buildRunView(uds()));
  assert.match(text, /^503 Service Unavailable$/m);
  assert.match(text, /^### 20 requests per second to a single Pod$/m);
  assert.match(text, /^### 50 requests per second loadbalanced between 10 Pods$/m);
  // The k6 client's own usage is not a namespace of the source benchmark's table.
  assert.doesNotMatch(text, /client/);
  assertGolden('uds-scale.md', text);
});

test('kyma-sidecar tables over GET and POST with failed calls (golden)', () => {
  const text = renderKymaTables([buildRunView(kyma())]);
  assert.match(text, /^\| Sidecar \| \d+ \| 21 \|/m); // 41 failures in one of two repetitions: 20.5 rounds to 21
  assertGolden('kyma-sidecar.md', text);
});

test('istio-linkerd-fortio runs per protocol and mode (golden)', () => {
  assertGolden('istio-linkerd-fortio.md', renderFortioRuns(buildRunView(fortio())));
});

test('istio-synthetic sizing: added latency and proxy vCPU per 1000 rps (golden)', () => {
  assertGolden('istio-synthetic.md', renderIstioSizing(buildRunView(synthetic())));
});

test('renderSourceFormats picks the formats of the preset recorded in the results', () => {
  assert.deepEqual(
    renderSourceFormats(buildRunView(ambient())).map((f) => [f.name, f.file, f.markdown]),
    [
      ['ambient-csv', 'ambient-results.csv', false],
      ['ambient-table', 'ambient-results.txt', false],
    ],
  );
  assert.deepEqual(
    renderSourceFormats(buildRunView(kyma())).map((f) => f.name),
    ['kyma-tables'],
  );
  const noPreset = { ...ambient(), config: { suite: 'x' } };
  assert.deepEqual(renderSourceFormats(buildRunView(noPreset)), []);
});
