// N k6 client pods per mode (load.generators), pure parts: the pods replicated from the client
// manifest with their spread rules, which nodes can take them, the fit check's messages, and the
// capacity `auto` chooses from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubernetesObject } from '@kubernetes/client-node';
import { CLIENT_INDEX, CLIENT_NAME } from '../../../src/platform/kubernetes/resources/groups.ts';
import { clientObjects, clientPodName, spreadTerms } from '../../../src/platform/kubernetes/clients.ts';
import {
  clientFitProblem,
  clusterLoadCapacity,
  cpuMillicoresOf,
  nodesReservedForEcho,
  runnerFitProblem,
  schedulableNodes,
  unschedulableNodes,
  type NodeView,
  withoutClientAvoidance,
} from '../../../src/platform/kubernetes/placement.ts';
import { chooseGenerators, RPS_PER_K6_PROCESS, rateCeiling } from '../../../src/load/ceiling.ts';
import { parseManifests } from '../../../src/platform/kubernetes/apply.ts';
import { renderWorkload } from '../../../src/platform/kubernetes/workloads.ts';
import { validateConfig } from '../../../src/config/validate.ts';

const workload = () =>
  renderWorkload(validateConfig({ platform: 'kubeconfig', modes: [{ name: 'baseline' }], load: { rate: 10 } }), process.cwd());

type PodShape = KubernetesObject & {
  spec: {
    affinity?: {
      podAffinity?: unknown;
      podAntiAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: unknown[] };
    };
    containers: { resources?: unknown }[];
  };
};

test('one generator: the manifest pod as it was, labelled with its index, no spread rule', () => {
  const { client, clientPod } = workload();
  const [pod] = clientObjects(client, clientPod, 1) as PodShape[];
  assert.equal(pod!.metadata!.name, 'mesh-perf-client');
  assert.equal(pod!.metadata!.labels![CLIENT_INDEX], '0');
  assert.equal(pod!.spec.affinity?.podAntiAffinity, undefined);
  // The original preference to share a node with other modes' clients stays.
  assert.ok(pod!.spec.affinity?.podAffinity);
});

test('three generators: three pods, each required apart from the others and from every echo pod, same resources', () => {
  const { client, clientPod } = workload();
  const pods = clientObjects(client, clientPod, 3) as PodShape[];
  assert.deepEqual(
    pods.map((p) => p.metadata!.name),
    ['mesh-perf-client', 'mesh-perf-client-1', 'mesh-perf-client-2'],
  );
  assert.deepEqual(
    pods.map((p) => p.metadata!.labels![CLIENT_INDEX]),
    ['0', '1', '2'],
  );
  for (const pod of pods) {
    assert.equal(pod.metadata!.labels!['app.kubernetes.io/name'], 'mesh-perf-client');
    assert.deepEqual(pod.spec.affinity!.podAntiAffinity!.requiredDuringSchedulingIgnoredDuringExecution, spreadTerms());
    assert.deepEqual(pod.spec.containers[0]!.resources, (client[0] as PodShape).spec.containers[0]!.resources);
  }
  // The template itself is untouched (it is rendered once per run and applied per namespace).
  assert.equal((client[0] as PodShape).spec.affinity?.podAntiAffinity, undefined);
  const [peers, echo] = spreadTerms() as { topologyKey: string; labelSelector: unknown; namespaceSelector?: unknown }[];
  assert.equal(peers!.topologyKey, 'kubernetes.io/hostname');
  assert.deepEqual(peers!.labelSelector, { matchExpressions: [{ key: CLIENT_INDEX, operator: 'Exists' }] });
  assert.equal(peers!.namespaceSelector, undefined, "the mode's own namespace: other modes' clients may share a node");
  assert.deepEqual(echo!.labelSelector, { matchLabels: { 'app.kubernetes.io/name': 'mesh-perf-echo' } });
});

test("a user's client manifest: its own anti-affinity kept, other objects once", () => {
  const objects = parseManifests(
    `apiVersion: v1
kind: ServiceAccount
metadata: { name: k6 }
---
apiVersion: v1
kind: Pod
metadata: { name: my-k6 }
spec:
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        - topologyKey: topology.kubernetes.io/zone
          labelSelector: { matchLabels: { app: db } }
  containers: [{ name: k6, image: grafana/k6 }]
`,
    'client.yaml',
  );
  const out = clientObjects(objects, 'my-k6', 2) as PodShape[];
  assert.deepEqual(
    out.map((o) => `${o.kind}/${o.metadata!.name}`),
    ['ServiceAccount/k6', 'Pod/my-k6', 'Pod/my-k6-1'],
  );
  const terms = out[2]!.spec.affinity!.podAntiAffinity!.requiredDuringSchedulingIgnoredDuringExecution!;
  assert.equal(terms.length, 3);
  assert.equal((terms[0] as { topologyKey: string }).topologyKey, 'topology.kubernetes.io/zone');
  assert.equal(clientPodName('my-k6', 0), 'my-k6');
  assert.throws(() => clientObjects(objects, 'my-k6', 0), /≥ 1, got 0/);
});

const node = (name: string, cpu: string, extra: Partial<NodeView> = {}): NodeView => ({
  metadata: { name },
  status: { allocatable: { cpu }, conditions: [{ type: 'Ready', status: 'True' }] },
  ...extra,
});

test('schedulable nodes: Ready, not cordoned, no NoSchedule/NoExecute taint; CPU in millicores', () => {
  const nodes = schedulableNodes([
    node('a', '4'),
    node('cp', '8', { spec: { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] } }),
    node('cordoned', '4', { spec: { unschedulable: true } }),
    node('soft', '1500m', { spec: { taints: [{ key: 'x', effect: 'PreferNoSchedule' }] } }),
    { metadata: { name: 'down' }, status: { allocatable: { cpu: '4' }, conditions: [{ type: 'Ready', status: 'False' }] } },
  ]);
  assert.deepEqual(nodes, [
    { name: 'a', cpuMillicores: 4000 },
    { name: 'soft', cpuMillicores: 1500 },
  ]);
  assert.equal(cpuMillicoresOf('250m'), 250);
  assert.equal(cpuMillicoresOf('2'), 2000);
  assert.equal(cpuMillicoresOf('0.5'), 500);
  assert.equal(cpuMillicoresOf('lots'), undefined);
});

test('fit: N generators need N + 1 schedulable nodes, N of them with room for the CPU request', () => {
  const two = [
    { name: 'n0', cpuMillicores: 4000 },
    { name: 'n1', cpuMillicores: 4000 },
  ];
  assert.equal(clientFitProblem(two, { clients: 1, field: 'load.generators', requestMillicores: 200 }), undefined);
  assert.equal(
    clientFitProblem(two, { clients: 4, field: 'load.generators', requestMillicores: 200 }),
    'load.generators 4 needs 4 client pods on separate nodes and one more node for the echo server (5 schedulable nodes); ' +
      'the cluster has 2 schedulable nodes (n0 4 CPU, n1 4 CPU). Lower load.generators to 1 or add nodes.',
  );
  const three = [...two, { name: 'small', cpuMillicores: 500 }];
  assert.equal(clientFitProblem(three, { clients: 2, field: 'load[1].generators', requestMillicores: 200 }), undefined);
  assert.equal(
    clientFitProblem(three, { clients: 3, field: 'load[1].generators', requestMillicores: 200 }),
    'load[1].generators 3 needs 3 client pods on separate nodes and one more node for the echo server (4 schedulable nodes); ' +
      'the cluster has 3 schedulable nodes (n0 4 CPU, n1 4 CPU, small 500m CPU). Lower load[1].generators to 2 or add nodes.',
  );
  assert.match(
    clientFitProblem(three, { clients: 2, field: 'load.generators', requestMillicores: 4500 })!,
    /^load\.generators 2 needs 2 nodes with 4500m CPU allocatable for a client pod each \(kubernetes\.resources\.client\.cpu\); 0 nodes of 3 have that much/,
  );
  assert.match(
    clientFitProblem([], { clients: 2, field: 'load.generators', requestMillicores: 1 })!,
    /the cluster has 0 schedulable nodes\. /,
  );
});

test('capacity for auto: one client pod per schedulable node but one; each holds what one k6 process does, or its CPU limit less', () => {
  const nodes = [
    { name: 'n0', cpuMillicores: 8000 },
    { name: 'n1', cpuMillicores: 4000 },
    { name: 'n2', cpuMillicores: 1000 },
  ];
  // 2 CPU per pod: 10,666 rps of CPU, but one process holds one core's 5,333 before its own
  // scheduling shows in the tail (load/ceiling.ts).
  assert.deepEqual(clusterLoadCapacity(nodes, 2000, 200), {
    instances: 2,
    rpsPerInstance: RPS_PER_K6_PROCESS,
    totalRps: 2 * rateCeiling(2, false),
    describe: '3 schedulable nodes (one kept for the echo server), 2 CPU per client pod',
  });
  // A 500m limit holds less than a core.
  const small = clusterLoadCapacity(nodes, 500, 200);
  assert.equal(small.rpsPerInstance, rateCeiling(0.5, false));
  assert.equal(small.describe, '3 schedulable nodes (one kept for the echo server), 500m CPU per client pod');
  // The limit is more than the second node has: that node bounds what each pod can count on.
  assert.equal(clusterLoadCapacity(nodes, 6000, 200).totalRps, 2 * rateCeiling(4, false));
  assert.equal(clusterLoadCapacity(nodes.slice(0, 1), 2000, 200).instances, 1);
  // auto with this capacity: 12,000 rps needs 3 processes, capped at the 2 pods the nodes hold.
  const choice = chooseGenerators({ generators: 'auto', model: 'open', rate: 12_000 }, clusterLoadCapacity(nodes, 2000, 200));
  assert.equal(choice.count, 2);
  assert.match(choice.reason, /capped at 2 by 3 schedulable nodes \(one kept for the echo server\), 2 CPU per client pod/);
});

test("k6-operator's runners: N runners need N nodes besides those their mode's echo pods may take (issue 38 item 2)", () => {
  const nodes = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `w${i}`, cpuMillicores: 4000 }));
  const fit = { clients: 2, field: 'load.generators', requestMillicores: 200, echoPods: 1, echoField: 'kubernetes.replicas' };
  // The kind e2e job's shape: three workers, two runners, one echo pod per mode.
  assert.equal(runnerFitProblem(nodes(3), fit), undefined);
  assert.equal(
    runnerFitProblem(nodes(4), { ...fit, echoPods: 3, echoField: 'load[1].replicas', field: 'load[1].generators' }),
    "load[1].generators 2 runs 2 k6-operator runners, each on a node without one of the mode's 3 echo pods (load[1].replicas), " +
      'which may take a node each: that needs 5 schedulable nodes; the cluster has 4 schedulable nodes (w0, w1, w2, w3). ' +
      'Lower load[1].generators to 1 or load[1].replicas, or add nodes.',
  );
  // Enough nodes, too little CPU: the echo pods may take the roomiest.
  assert.equal(
    runnerFitProblem([...nodes(1), { name: 'small', cpuMillicores: 100 }], { ...fit, clients: 1, requestMillicores: 200 }),
    "load.generators 1 runs 1 k6-operator runner, each on a node without one of the mode's 1 echo pod (kubernetes.replicas), " +
      'which may take a node each, the roomiest first, and each runner needs 200m CPU allocatable (kubernetes.resources.client.cpu) on another: ' +
      '2 such nodes; 1 node of 2 has that much (w0 4 CPU, small 100m CPU). Lower kubernetes.resources.client.cpu, or add nodes.',
  );
  assert.match(
    runnerFitProblem(nodes(3), { ...fit, requestMillicores: 8000 })!,
    /needs 8 CPU allocatable .* on another: 3 such nodes; 0 nodes of 3/,
  );
  // One runner is checked too (issue 51): a one-node cluster, and one whose other node a taint took, are refused by name.
  assert.equal(
    runnerFitProblem(nodes(1), { ...fit, clients: 1 }),
    "load.generators 1 runs 1 k6-operator runner, each on a node without one of the mode's 1 echo pod (kubernetes.replicas), " +
      'which may take a node each: that needs 2 schedulable nodes; the cluster has 1 schedulable node (w0). ' +
      "Add a node, or use load.engine: k6 (k6 in a client pod, which may share the echo server's node).",
  );
  const tainted = [
    node('w0', '4'),
    node('w1', '4', { spec: { taints: [{ key: 'dedicated', value: 'perf', effect: 'NoSchedule' }] } }),
    node('w2', '4', { spec: { unschedulable: true } }),
  ];
  assert.deepEqual(unschedulableNodes(tainted), ['w1 (taint dedicated=perf:NoSchedule)', 'w2 (cordoned)']);
  assert.match(
    runnerFitProblem(schedulableNodes(tainted), { ...fit, clients: 1, leftOut: unschedulableNodes(tainted) })!,
    /the cluster has 1 schedulable node \(w0\); not schedulable: w1 \(taint dedicated=perf:NoSchedule\), w2 \(cordoned\)\. Add a node/,
  );
  // What auto counts on under k6-operator: the nodes left once the echo pods took theirs.
  const config = (engine: string, replicas?: number) =>
    validateConfig({
      platform: 'kubeconfig',
      modes: [{ name: 'baseline' }],
      load: { rate: 10, engine, ...(replicas ? { replicas } : {}) },
      kubernetes: { replicas: 2 },
    });
  assert.equal(nodesReservedForEcho(config('k6')), 1);
  assert.equal(nodesReservedForEcho(config('k6-operator')), 2);
  assert.equal(nodesReservedForEcho(config('k6-operator', 3)), 3);
  assert.equal(clusterLoadCapacity(nodes(5), 2000, 200, 3).instances, 2);
  assert.match(clusterLoadCapacity(nodes(5), 2000, 200, 3).describe, /\(3 kept for the echo server\)/);
});

test('a single-node cluster: the echo server loses only its rule against client nodes; other rules and objects stay', () => {
  const { server } = workload();
  type DeploymentShape = KubernetesObject & {
    spec: { template: { spec: { affinity?: { podAntiAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: unknown[] } } } } };
  };
  const echo = server.find((o) => o.kind === 'Deployment') as DeploymentShape;
  // The built-in manifest keeps the echo pods off client nodes: on one node they would never schedule.
  assert.equal(echo.spec.template.spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.length, 1);
  const shared = withoutClientAvoidance(server, CLIENT_NAME);
  const sharedEcho = shared.find((o) => o.kind === 'Deployment') as DeploymentShape;
  assert.equal(sharedEcho.spec.template.spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution, undefined);
  assert.deepEqual(
    shared.filter((o) => o.kind !== 'Deployment'),
    server.filter((o) => o.kind !== 'Deployment'),
  );
  // The input is not changed (it is the run's one rendered workload).
  assert.equal(echo.spec.template.spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.length, 1);
  // A user's own anti-affinity term stays.
  const own = structuredClone(echo);
  own.spec.template.spec.affinity!.podAntiAffinity!.requiredDuringSchedulingIgnoredDuringExecution!.push({
    topologyKey: 'kubernetes.io/hostname',
    labelSelector: { matchLabels: { app: 'database' } },
  });
  const [kept] = withoutClientAvoidance([own], CLIENT_NAME) as DeploymentShape[];
  assert.deepEqual(kept!.spec.template.spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution, [
    { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'database' } } },
  ]);
});
