// Pure pieces of the Kubernetes platform: mesh of a mode and its namespace enrolment, namespace
// placement, ownership decisions, retry policy, workload rendering, environment helpers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namespaceSetup, meshKindOf, needsGatewayApi, usesIstio } from '../../../src/platform/kubernetes/mesh/modes.ts';
import { placeModes } from '../../../src/platform/kubernetes/platform.ts';
import { ownershipOf, suiteSelector } from '../../../src/platform/kubernetes/ownership.ts';
import { backoffMs, isRetryable, withRetry } from '../../../src/platform/kubernetes/retry.ts';
import { renderTemplate, renderWorkload, templateValues } from '../../../src/platform/kubernetes/workloads.ts';
import { detectCni, quantityToNumber, runningImage } from '../../../src/platform/kubernetes/environment.ts';
import { validateConfig } from '../../../src/config/validate.ts';
import { UsageError } from '../../../src/util/errors.ts';

const config = (extra: Record<string, unknown> = {}) =>
  validateConfig({ platform: 'kubeconfig', modes: [{ name: 'baseline' }, { name: 'istio-ambient' }], load: { rate: 10 }, ...extra });

test("each mesh mode enrols its namespace the way the mesh documents, beside the mode's own labels and annotations", () => {
  const mode = { name: 'm', namespaceLabels: { team: 'perf' }, namespaceAnnotations: { 'config.linkerd.io/proxy-cpu-limit': '2' } };
  const own = { labels: { team: 'perf' }, annotations: { 'config.linkerd.io/proxy-cpu-limit': '2' } };
  assert.deepEqual(namespaceSetup(mode, 'baseline'), own);
  assert.deepEqual(namespaceSetup(mode, 'istio-sidecar'), { ...own, labels: { team: 'perf', 'istio-injection': 'enabled' } });
  assert.deepEqual(namespaceSetup(mode, 'istio-ambient'), { ...own, labels: { team: 'perf', 'istio.io/dataplane-mode': 'ambient' } });
  // Istio's gateways call a service's waypoint only with istio.io/ingress-use-waypoint (issue 38 item 3).
  assert.deepEqual(namespaceSetup(mode, 'istio-waypoint'), {
    ...own,
    labels: { team: 'perf', 'istio.io/dataplane-mode': 'ambient', 'istio.io/ingress-use-waypoint': 'true' },
  });
  assert.equal(
    namespaceSetup({ name: 'w', namespaceLabels: { 'istio.io/ingress-use-waypoint': 'false' } }, 'istio-waypoint').labels[
      'istio.io/ingress-use-waypoint'
    ],
    'true',
  );
  assert.deepEqual(namespaceSetup(mode, 'linkerd'), {
    labels: { team: 'perf' },
    annotations: {
      'config.linkerd.io/proxy-cpu-limit': '2',
      'linkerd.io/inject': 'enabled',
      'config.linkerd.io/proxy-enable-native-sidecar': 'true',
    },
  });
  assert.deepEqual(namespaceSetup(mode, 'existing'), own);
  // A mode with its own Istio revision is enrolled by that revision's label alone (istio-injection would win over it).
  assert.deepEqual(namespaceSetup({ ...mode, name: 'canary', istio: {} }, 'istio-sidecar').labels, {
    team: 'perf',
    'istio.io/rev': 'mp-canary',
  });
  assert.deepEqual(namespaceSetup({ ...mode, istio: { revision: 'blue' } }, 'istio-sidecar').labels, {
    team: 'perf',
    'istio.io/rev': 'blue',
  });
  // The mesh's enrolment wins over a mode's own key: a mode stays in its mesh.
  assert.equal(
    namespaceSetup({ name: 'm', namespaceAnnotations: { 'linkerd.io/inject': 'disabled' } }, 'linkerd').annotations['linkerd.io/inject'],
    'enabled',
  );
  assert.deepEqual(
    ['baseline', 'istio-sidecar', 'istio-ambient', 'istio-waypoint', 'linkerd', 'existing'].map((k) => [
      usesIstio(k as never),
      needsGatewayApi(k as never),
    ]),
    [
      [false, false],
      [true, false],
      [true, false],
      [true, true],
      [false, true],
      [false, false],
    ],
  );
});

test('a mode needs a mesh kind on Kubernetes; namespaces are <prefix>-<mode> and fit 63 characters', () => {
  assert.equal(meshKindOf({ name: 'linkerd' }), 'linkerd');
  assert.equal(meshKindOf({ name: 'fast', mesh: 'istio-sidecar' }), 'istio-sidecar');
  assert.equal(meshKindOf({ name: 'linkerd-head', arm: { of: 'linkerd', side: 'head' } }), 'linkerd', "an arm is in its mode's mesh");
  assert.throws(
    () => meshKindOf({ name: 'fast' }, 2),
    (e: unknown) => e instanceof UsageError && /modes\[2\]\.mesh/.test(e.message),
  );
  assert.deepEqual(
    placeModes([{ name: 'baseline' }, { name: 'fast', mesh: 'linkerd' }], 'mp').map((p) => [p.namespace, p.mesh]),
    [
      ['mp-baseline', 'baseline'],
      ['mp-fast', 'linkerd'],
    ],
  );
  assert.throws(() => placeModes([{ name: 'x'.repeat(40), mesh: 'baseline' }], 'p'.repeat(23)), /longer than 63/);
});

test('ownership: only namespaces labelled managed-by=mesh-perf with this run id are ours', () => {
  const ns = (labels?: Record<string, string>, deletionTimestamp?: string) => ({ metadata: { name: 'n', labels, deletionTimestamp } });
  const ours = { 'app.kubernetes.io/managed-by': 'mesh-perf', 'mesh-perf.dev/run-id': 'r1' };
  assert.deepEqual(ownershipOf(undefined, 'r1'), { state: 'absent' });
  assert.deepEqual(ownershipOf(ns(), 'r1'), { state: 'foreign' });
  assert.deepEqual(ownershipOf(ns({ 'app.kubernetes.io/managed-by': 'helm' }), 'r1'), { state: 'foreign' });
  assert.deepEqual(ownershipOf(ns(ours), 'r1'), { state: 'ours' });
  assert.deepEqual(ownershipOf(ns(ours), 'r2'), { state: 'other-run', runId: 'r1' });
  // What `mesh-perf up` left is a later run's to use, for its own suite only.
  const kept = { ...ours, 'mesh-perf.dev/suite': 's', 'mesh-perf.dev/kept': 'until-down' };
  assert.deepEqual(ownershipOf(ns(kept), 'r2', 's'), { state: 'kept', runId: 'r1' });
  assert.deepEqual(ownershipOf(ns(kept), 'r2', 'other'), { state: 'other-run', runId: 'r1' });
  assert.deepEqual(ownershipOf(ns(kept), 'r1', 's'), { state: 'ours' });
  assert.deepEqual(ownershipOf(ns(ours, '2026-01-01T00:00:00Z'), 'r1'), { state: 'terminating' });
  assert.deepEqual(ownershipOf(ns({ 'app.kubernetes.io/managed-by': 'someone' }, '2026-01-01T00:00:00Z'), 'r1'), { state: 'foreign' });
  assert.equal(suiteSelector('nightly'), 'app.kubernetes.io/managed-by=mesh-perf,mesh-perf.dev/suite=nightly');
});

test('retries: 429 and 5xx and connection resets, with bounded backoff honouring Retry-After', async () => {
  const cases: [unknown, boolean][] = [
    [{ code: 429 }, true],
    [{ code: 503 }, true],
    [{ code: 500 }, true],
    [{ code: 404 }, false],
    [{ code: 403 }, false],
    [{ code: 409 }, false],
    [Object.assign(new Error('x'), { code: 'ECONNRESET' }), true],
    [Object.assign(new Error('x'), { code: 'ENOTFOUND' }), false],
    [new Error('plain'), false],
  ];
  for (const [error, retry] of cases) assert.equal(isRetryable(error), retry, JSON.stringify(error));
  assert.deepEqual(
    [1, 2, 3, 10].map((n) => backoffMs(n, { code: 503 })),
    [250, 500, 1000, 8000],
  );
  assert.equal(backoffMs(1, { code: 429, headers: { 'retry-after': '2' } }), 2000);
  let calls = 0;
  const value = await withRetry(
    async () => {
      calls++;
      if (calls < 3) throw { code: 503 };
      return 'ok';
    },
    { baseDelayMs: 1 },
  );
  assert.equal(value, 'ok');
  assert.equal(calls, 3);
  calls = 0;
  await assert.rejects(
    withRetry(
      async () => {
        calls++;
        throw { code: 500 };
      },
      { attempts: 4, baseDelayMs: 1 },
    ),
  );
  assert.equal(calls, 4, 'bounded');
  calls = 0;
  await assert.rejects(
    withRetry(
      async () => {
        calls++;
        throw { code: 403 };
      },
      { baseDelayMs: 1 },
    ),
  );
  assert.equal(calls, 1, 'not retried');
});

test('workload manifests render with the configured images, replicas and requests', () => {
  const c = config({ kubernetes: { replicas: 3, resources: { app: { cpu: '75m' } } } });
  const workload = renderWorkload(c, process.cwd());
  const deployment = workload.server.find((o) => o.kind === 'Deployment') as unknown as {
    spec: {
      replicas: number;
      template: { spec: { containers: { image: string; resources: { requests: { cpu: string } } }[]; affinity: unknown } };
    };
  };
  assert.equal(deployment.spec.replicas, 3);
  assert.equal(deployment.spec.template.spec.containers[0]!.image, c.kubernetes.images.echo);
  assert.equal(deployment.spec.template.spec.containers[0]!.resources.requests.cpu, '75m');
  assert.ok(JSON.stringify(deployment.spec.template.spec.affinity).includes('mesh-perf-client'), 'echo avoids client nodes');
  assert.ok(workload.server.some((o) => o.kind === 'Service' && o.metadata?.name === 'echo'));
  assert.equal(workload.clientPod, 'mesh-perf-client');
  assert.equal(workload.clientContainer, 'k6');
  assert.ok(JSON.stringify(workload.client).includes(c.kubernetes.images.client));
  assert.ok(!JSON.stringify(workload).includes('${'), 'no placeholder left');
  assert.equal(Object.keys(templateValues(c)).length, 13);
  const httpPort = (w: typeof workload) =>
    (w.server.find((o) => o.kind === 'Service') as unknown as { spec: { ports: { name: string; appProtocol: string }[] } }).spec.ports[0]!;
  assert.deepEqual({ ...httpPort(workload) }, { name: 'http', port: 8080, targetPort: 8080, appProtocol: 'http' });
  const tcp = renderWorkload({ ...c, kubernetes: { ...c.kubernetes, serviceProtocol: 'tcp' } }, process.cwd());
  assert.deepEqual(
    { ...httpPort(tcp) },
    { name: 'tcp-echo', port: 8080, targetPort: 8080, appProtocol: 'tcp' },
    'serviceProtocol tcp declares the port for L4 handling',
  );
  assert.throws(() => renderTemplate('a: ${MISSING}', {}, 'x.yaml'), /x\.yaml: no value for placeholder \$\{MISSING\}/);
});

test("an A/B arm's built-in echo server: 2 pods by default, one per node, preferring the nodes of the other arm's pods", () => {
  const arms = validateConfig({
    platform: 'kubeconfig',
    modes: [{ name: 'app', mesh: 'baseline', arms: { head: { echoImage: 'app:2' } } }],
    load: { rate: 10 },
  });
  assert.equal(arms.kubernetes.replicas, 2, 'each arm on two pods unless kubernetes.replicas says more');
  assert.equal(config().kubernetes.replicas, 1, 'without arms, one as before');
  type Spec = {
    spec: {
      replicas: number;
      template: {
        metadata: { labels: Record<string, string> };
        spec: {
          topologySpreadConstraints: {
            topologyKey: string;
            whenUnsatisfiable: string;
            labelSelector: { matchLabels: Record<string, string> };
          }[];
          affinity: {
            podAntiAffinity: unknown;
            podAffinity: {
              preferredDuringSchedulingIgnoredDuringExecution: {
                podAffinityTerm: { labelSelector: { matchLabels: Record<string, string> } };
              }[];
            };
          };
        };
      };
    };
  };
  const head = renderWorkload(arms, process.cwd(), undefined, { echoImage: 'app:2', arm: { of: 'app', side: 'head' } });
  const deployment = head.server.find((o) => o.kind === 'Deployment') as unknown as Spec;
  assert.equal(deployment.spec.replicas, 2);
  const pod = deployment.spec.template;
  assert.deepEqual(
    { of: pod.metadata.labels['mesh-perf.dev/arm-of'], side: pod.metadata.labels['mesh-perf.dev/arm'] },
    { of: 'app', side: 'head' },
  );
  const [spread] = pod.spec.topologySpreadConstraints;
  assert.deepEqual([spread!.topologyKey, spread!.whenUnsatisfiable], ['kubernetes.io/hostname', 'ScheduleAnyway']);
  assert.equal(spread!.labelSelector.matchLabels['mesh-perf.dev/arm'], 'head', 'its own pods spread');
  const toward =
    pod.spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]!.podAffinityTerm.labelSelector.matchLabels;
  assert.deepEqual(toward, { 'mesh-perf.dev/arm-of': 'app', 'mesh-perf.dev/arm': 'base' }, 'toward the other arm');
  assert.ok(pod.spec.affinity.podAntiAffinity, 'still apart from the client pods');
  // A team's own server manifests are applied as written.
  const plain = renderWorkload(arms, process.cwd());
  assert.equal(JSON.stringify(plain.server).includes('mesh-perf.dev/arm'), false, 'a mode without arms is unchanged');
});

test('environment helpers: CNI from kube-system DaemonSets, quantities', () => {
  assert.equal(detectCni(['kube-proxy', 'kindnet']), 'kindnet');
  assert.equal(detectCni(['cilium', 'cilium-envoy']), 'cilium');
  assert.equal(detectCni(['kube-proxy']), 'unknown');
  assert.equal(quantityToNumber('4'), 4);
  assert.equal(quantityToNumber('500m'), 0.5);
  assert.equal(quantityToNumber('16Gi'), 16 * 1024 ** 3);
  assert.equal(quantityToNumber('16318424Ki'), 16318424 * 1024);
  assert.equal(quantityToNumber('bad'), undefined);
});

test('the image a container ran: the repository digest a pull resolved, or a loaded image by name with its ID (the real node showed a bare ID)', () => {
  const id = `sha256:${'c2'.repeat(32)}`;
  // Pulled: the runtime reports the repository digest, which names the image.
  assert.equal(runningImage('fortio/fortio:1.69.4', `docker.io/fortio/fortio@${id}`), `docker.io/fortio/fortio@${id}`);
  // Loaded (kind load, ctr images import): containerd reports only the image's own ID, which names nothing.
  assert.equal(runningImage('mesh-perf.local/fortio/fortio:1.66.0', id), `mesh-perf.local/fortio/fortio:1.66.0 (image ID ${id})`);
  assert.equal(runningImage('fortio/fortio:1.69.4', undefined), 'fortio/fortio:1.69.4');
  assert.equal(runningImage('fortio/fortio:1.69.4', ''), 'fortio/fortio:1.69.4');
});
