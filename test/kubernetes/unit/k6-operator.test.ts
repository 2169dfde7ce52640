// The k6-operator engine's pure parts: the segments k6-operator hands its runners equal the
// group engine's slices, the one argument list all runners share, the refusal of a group one
// TestRun cannot run, the TestRun and ConfigMap it creates, and load.engine in the config.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { executionSegments } from '../../../src/load/segments.ts';
import { groupInvocations } from '../../../src/load/engine.ts';
import type { K6Invocation } from '../../../src/load/types.ts';
import { csvOutputArg } from '../../../src/load/raw-samples.ts';
import { buildTestRun, checkGroup, operatorSegment, RAW_NAME, runnerArgs } from '../../../src/platform/kubernetes/k6-operator/testrun.ts';
import { K6_OPERATOR_STARTER_IMAGE, installHint, K6_OPERATOR_BUNDLE } from '../../../src/platform/kubernetes/k6-operator/version.ts';
import { WRAPPER_KEY, WRAPPER_SCRIPT } from '../../../src/platform/kubernetes/k6-operator/wrapper.ts';
import { ConfigError, validateConfig } from '../../../src/config/validate.ts';
import { KindPlatform } from '../../../src/platform/kubernetes/kind/platform.ts';
import { EnvironmentError } from '../../../src/util/errors.ts';
import { silentLogger } from '../../../src/util/log.ts';
import { runCliInProcess } from '../../support/cli.ts';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function invocation(extra: Partial<K6Invocation> = {}): K6Invocation {
  return {
    files: { 'http.js': 'export default function () {}', 'mesh-perf-lib.js': '' },
    entry: 'http.js',
    args: ['--out', csvOutputArg('raw-0.csv')],
    env: { MESH_PERF_MODE: 'baseline', MESH_PERF_PARAMS: '{"a": 1}' },
    summaryFile: 'mesh-perf-summary.json',
    expectedSeconds: 12,
    rawFile: 'raw-0.csv',
    ...extra,
  };
}

function group(n: number): K6Invocation[] {
  return executionSegments(n).map((instance, i) =>
    invocation({ instance, rawFile: `raw-${i}.csv`, args: ['--out', csvOutputArg(`raw-${i}.csv`)] }),
  );
}

const placement = {
  namespace: 'mp-baseline',
  echoNamespace: 'mp-baseline',
  mode: 'baseline',
  image: 'grafana/k6:1.4.2@sha256:abc',
  resources: { requests: { cpu: '200m', memory: '128Mi' }, limits: { cpu: '2', memory: '1Gi' } },
  ownerLabels: { 'app.kubernetes.io/managed-by': 'mesh-perf', 'mesh-perf.dev/suite': 's', 'mesh-perf.dev/run-id': 'r1' },
};

test("k6-operator's runner segments are the group engine's slices, runner k = instance k-1", () => {
  for (let n = 1; n <= 8; n++) {
    executionSegments(n).forEach((slice, i) => {
      const operator = operatorSegment(i + 1, n);
      assert.equal(operator.segment, slice.segment, `n=${n} runner ${i + 1}`);
      assert.equal(operator.sequence, slice.sequence);
    });
  }
  assert.deepEqual(operatorSegment(2, 4), { segment: '1/4:2/4', sequence: '0,1/4,2/4,3/4,1' });
});

test('runner arguments: raw file renamed, --out=x split (k6-operator keeps it out of k6 archive), segments dropped, then -e pairs', () => {
  const args = runnerArgs(
    invocation({
      args: [
        `--out=${csvOutputArg('raw-3.csv')}`,
        '--execution-segment',
        '3/4:1',
        '--execution-segment-sequence=0,1/4,2/4,3/4,1',
        '--summary-trend-stats=avg',
      ],
      rawFile: 'raw-3.csv',
    }),
  );
  assert.deepEqual(
    runnerArgs(invocation({ args: [], env: { H: 'a $(PATH) b' } })),
    ['-e', 'H=a $$(PATH) b'],
    'the kubelet would expand $(PATH)',
  );
  assert.deepEqual(args, [
    '--out',
    csvOutputArg(RAW_NAME),
    '--summary-trend-stats=avg',
    '-e',
    'MESH_PERF_MODE=baseline',
    '-e',
    'MESH_PERF_PARAMS={"a": 1}',
  ]);
});

test('a group one TestRun cannot run is refused: different arguments, a slice that is not the runner’s', () => {
  assert.doesNotThrow(() => checkGroup(group(3)));
  // The group engine's own invocations: per-instance segment arguments, one raw file name.
  const engine = groupInvocations(invocation({ args: [], rawFile: undefined }), 3);
  assert.doesNotThrow(() => checkGroup(engine));
  assert.deepEqual(runnerArgs(engine[2]!).slice(0, 2), ['--out', csvOutputArg(RAW_NAME)]);
  const differing = group(2);
  differing[1] = { ...differing[1]!, env: { ...differing[1]!.env, MESH_PERF_MODE: 'other' } };
  assert.throws(() => checkGroup(differing), /instance 1 differs from instance 0/);
  const swapped = group(2);
  swapped[0] = { ...swapped[0]!, instance: swapped[1]!.instance };
  assert.throws(() => checkGroup(swapped), /instance 0 of 2 must run segment 0:1\/2 of 0,1\/2,1 \(runner 1\), got 1\/2:1/);
  assert.throws(() => checkGroup([invocation(), invocation()]), /got no segment/);
  assert.doesNotThrow(() => checkGroup([invocation({ instance: undefined })]));
});

test('the TestRun: parallelism N, the script ConfigMap, shared args, runners placed and labelled like the client pod', () => {
  const { configMap, testRun } = buildTestRun('mesh-perf-0a1b2c3d', group(3), placement);
  const cm = configMap as { metadata: { name: string; namespace: string; labels: Record<string, string> }; data: Record<string, string> };
  assert.equal(cm.metadata.name, 'mesh-perf-0a1b2c3d');
  assert.equal(cm.metadata.namespace, 'mp-baseline');
  assert.deepEqual(Object.keys(cm.data).sort(), ['http.js', 'mesh-perf-lib.js', WRAPPER_KEY].sort());
  assert.equal(cm.data[WRAPPER_KEY], WRAPPER_SCRIPT);
  assert.equal(cm.metadata.labels['mesh-perf.dev/run-id'], 'r1');

  const tr = testRun as {
    apiVersion: string;
    kind: string;
    metadata: { labels: Record<string, string> };
    spec: {
      parallelism: number;
      script: unknown;
      args: string[];
      runner: {
        image: string;
        metadata: { labels: Record<string, string> };
        resources: unknown;
        env: { name: string; value?: string; valueFrom?: unknown }[];
        volumes: { name: string; configMap?: { items: { key: string; path: string; mode: number }[] } }[];
        volumeMounts: { name: string; mountPath: string }[];
        affinity: {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              labelSelector: { matchLabels: Record<string, string> };
              namespaces?: string[];
              namespaceSelector?: unknown;
            }[];
          };
        };
        livenessProbe: unknown;
      };
      initializer: { image: string; metadata: { labels: Record<string, string>; annotations: Record<string, string> } };
      starter: { image: string; metadata: { labels: Record<string, string>; annotations: Record<string, string> } };
    };
  };
  assert.equal(tr.apiVersion, 'k6.io/v1alpha1');
  assert.equal(tr.kind, 'TestRun');
  assert.equal(tr.spec.parallelism, 3);
  assert.deepEqual(tr.spec.script, { configMap: { name: 'mesh-perf-0a1b2c3d', file: 'http.js' } });
  assert.equal(tr.spec.args.filter((a) => a.startsWith('--execution-segment')).length, 0, 'k6-operator adds the segments');
  assert.ok(tr.spec.args.includes(csvOutputArg(RAW_NAME)));
  assert.equal(tr.metadata.labels['mesh-perf.dev/mode'], 'baseline');
  const runner = tr.spec.runner;
  assert.equal(runner.image, placement.image);
  assert.deepEqual(runner.resources, placement.resources);
  assert.equal(
    runner.metadata.labels['app.kubernetes.io/name'],
    'mesh-perf-client',
    'echo pods keep off runner nodes; samples count runners as client',
  );
  assert.equal(runner.metadata.labels['app.kubernetes.io/managed-by'], 'mesh-perf');
  const anti = runner.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution;
  assert.deepEqual(anti[0]!.labelSelector.matchLabels, { k6_cr: 'mesh-perf-0a1b2c3d', runner: 'true' });
  assert.deepEqual(anti[1]!.labelSelector.matchLabels, { 'app.kubernetes.io/name': 'mesh-perf-echo' });
  assert.deepEqual(anti[1]!.namespaces, ['mp-baseline'], "only the mode's own echo pods");
  assert.equal(anti[1]!.namespaceSelector, undefined);
  assert.match(runner.env.find((e) => e.name === 'PATH')!.value!, /^\/mesh-perf\/bin:.*\/usr\/bin/);
  assert.deepEqual(runner.env.find((e) => e.name === 'MESH_PERF_POD')!.valueFrom, { fieldRef: { fieldPath: 'metadata.name' } });
  assert.deepEqual(runner.volumes[0]!.configMap!.items, [{ key: WRAPPER_KEY, path: 'k6', mode: 0o755 }]);
  assert.deepEqual(
    runner.volumeMounts.map((m) => m.mountPath),
    ['/mesh-perf/bin', '/tmp/mesh-perf-k6-operator'],
  );
  assert.deepEqual(runner.livenessProbe, { exec: { command: ['true'] }, periodSeconds: 30 });
  assert.equal(tr.spec.initializer.image, placement.image);
  assert.equal(tr.spec.starter.image, K6_OPERATOR_STARTER_IMAGE);
  for (const pod of [tr.spec.initializer, tr.spec.starter]) {
    assert.equal(pod.metadata.labels['sidecar.istio.io/inject'], 'false');
    assert.equal(pod.metadata.labels['istio.io/dataplane-mode'], 'none');
    assert.equal(pod.metadata.annotations['linkerd.io/inject'], 'disabled');
  }
});

test("runners keep off their own mode's echo pods only: another mode's idle echo pods may take any node (issue 38 item 2)", () => {
  // Two modes, three workers: mode a's echo pod on one node, mode b's on another. Runners that
  // avoided every mesh-perf echo pod had one node left for two (k6-operator starts none until all
  // run); now mode a's runners avoid mode a's echo pods, wherever mode b's are.
  const behindIngress = { ...placement, namespace: 'mp-ingress', echoNamespace: 'mp-a', mode: 'a' };
  const { testRun } = buildTestRun('mesh-perf-0a1b2c3d', group(2), behindIngress);
  const anti = (
    testRun as {
      spec: { runner: { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: Record<string, unknown>[] } } } };
    }
  ).spec.runner.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution;
  assert.deepEqual(anti[1], {
    topologyKey: 'kubernetes.io/hostname',
    labelSelector: { matchLabels: { 'app.kubernetes.io/name': 'mesh-perf-echo' } },
    namespaces: ['mp-a'],
  });
});

test('install hint names the pinned bundle and the Helm chart', () => {
  assert.equal(K6_OPERATOR_BUNDLE, 'https://raw.githubusercontent.com/grafana/k6-operator/v1.6.0/bundle.yaml');
  assert.match(
    installHint(),
    /kubectl apply --server-side -f https:\/\/raw\.githubusercontent\.com\/grafana\/k6-operator\/v1\.6\.0\/bundle\.yaml/,
  );
  assert.match(installHint(), /helm install k6-operator grafana\/k6-operator --version 4\.6\.0/);
});

test('load.engine: k6-operator only on kind/kubeconfig, one engine per run, not with a script of your own', () => {
  const problems = (raw: Record<string, unknown>) => {
    try {
      validateConfig(raw);
      return [];
    } catch (error) {
      assert.ok(error instanceof ConfigError, String(error));
      return error.problems.map((p) => `${p.path}: ${p.message}`);
    }
  };
  assert.deepEqual(problems({ platform: 'kubeconfig', modes: [{ name: 'baseline' }], load: { rate: 10, engine: 'k6-operator' } }), []);
  const config = validateConfig({ platform: 'kind', modes: [{ name: 'baseline' }], load: { rate: 10, engine: 'k6-operator' } });
  assert.equal(config.profiles[0]!.engine, 'k6-operator');
  assert.equal(validateConfig({ modes: [{ name: 'baseline' }], load: { rate: 10 } }).profiles[0]!.engine, 'k6');
  assert.deepEqual(problems({ platform: 'local', modes: [{ name: 'baseline' }], load: { rate: 10, engine: 'k6-operator' } }), [
    'load.engine: "k6-operator" runs k6 as k6-operator TestRuns in a cluster: use platform kind or kubeconfig, or engine "k6" (got platform "local")',
  ]);
  assert.deepEqual(
    problems({
      platform: 'kubeconfig',
      modes: [{ name: 'baseline' }],
      load: [
        { rate: 10, engine: 'k6-operator' },
        { rate: 20, engine: 'k6' },
      ],
    }),
    ['load[1].engine: every load profile of a run uses the same engine: load[0] uses "k6-operator", got "k6"'],
  );
  const bad = problems({ platform: 'kubeconfig', modes: [{ name: 'baseline' }], load: { rate: 10, engine: 'operator' } });
  assert.equal(bad.length, 1);
  assert.match(bad[0]!, /^load\.engine: .*k6-operator/);
  assert.ok(
    problems({ platform: 'kubeconfig', modes: [{ name: 'baseline' }], load: { script: 'x.js', engine: 'k6-operator' } }).some((p) =>
      p.startsWith('load.engine: "k6-operator" runs the built-in load script'),
    ),
  );
});

test('platform kind with k6-operator and no cluster to reuse: refused before a cluster is created, with what to do', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mesh-perf-kind-'));
  try {
    // A kind that knows no clusters and logs every call.
    const kind = join(dir, 'kind');
    writeFileSync(kind, `#!/bin/sh\necho "$*" >> "${join(dir, 'calls')}"\n`);
    chmodSync(kind, 0o755);
    const config = validateConfig({ platform: 'kind', modes: [{ name: 'baseline' }], load: { rate: 10, engine: 'k6-operator' } });
    const platform = new KindPlatform(
      { config, runId: 'r', signal: new AbortController().signal, log: silentLogger },
      { MESH_PERF_KIND: kind },
    );
    await assert.rejects(platform.prepare(), (error) => {
      assert.ok(error instanceof EnvironmentError);
      assert.match(error.message, /platform kind would create a new cluster "mesh-perf", which has no k6-operator/);
      assert.match(error.message, /kubectl apply --server-side -f \S+\/v1\.6\.0\/bundle\.yaml/);
      return true;
    });
    assert.equal(readFileSync(join(dir, 'calls'), 'utf8'), 'get clusters\n', 'nothing but the lookup');
    await platform.teardown();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('plan says the repetitions run as k6-operator TestRuns, in text and JSON', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mesh-perf-plan-'));
  try {
    writeFileSync(
      join(dir, 'mesh-perf.yaml'),
      'platform: kubeconfig\nmodes: [{ name: baseline }]\nload: { rate: 10, engine: k6-operator }\n',
    );
    const text = await runCliInProcess(['plan', '--config', 'mesh-perf.yaml'], { cwd: dir });
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout.replace(/\s+/g, ' '), /k6 runs as k6-operator v1\.6\.0 TestRuns, one per repetition/);
    const json = await runCliInProcess(['plan', '--config', 'mesh-perf.yaml', '--json'], { cwd: dir });
    assert.deepEqual(JSON.parse(json.stdout).loadEngine, { name: 'k6-operator', version: '1.6.0' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
