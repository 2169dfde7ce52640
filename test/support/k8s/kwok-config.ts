// The kwok configuration of the local control plane: the stages that play a kubelet for fake
// nodes and pods, local exec (commands run on this machine, so `k6 run` really runs), emulated
// CPU/memory per container, and the kubelet resource-metrics endpoint served at /metrics/resource
// for the node, which the API server's node proxy reaches like a real kubelet's.
import { stringify } from 'yaml';

export interface ContainerUsage {
  /** CPU in Kubernetes quantity form: "25m". */
  cpu: string;
  /**
   * A kwok CEL expression for CPU instead of `cpu`, e.g. to make it depend on a node annotation the
   * test sets. kwok accrues the cumulative counter at each scrape as (time since the previous
   * scrape) × (the expression's value now).
   */
  cpuExpression?: string;
  /** Memory: "40Mi". */
  memory: string;
}

export interface KwokConfigOptions {
  nodeName: string;
  /** Directory `kubectl exec` commands run in. */
  execWorkDir: string;
  /** PATH for exec'd commands (kwok must run with the same PATH: Go resolves the binary with its own). */
  execPath: string;
  /** Usage by container name; `default` applies to all other containers. */
  usage: Record<string, ContainerUsage> & { default: ContainerUsage };
}

/** Pods carrying this annotation never become ready: they emulate an image that cannot be pulled. */
export const NEVER_READY_ANNOTATION = 'mesh-perf.test/image-pull-fails';

const API = 'kwok.x-k8s.io/v1alpha1';

function stage(
  name: string,
  kind: 'Node' | 'Pod',
  matchExpressions: unknown[],
  next: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  return {
    apiVersion: API,
    kind: 'Stage',
    metadata: { name },
    spec: { resourceRef: { apiGroup: 'v1', kind }, selector: { matchExpressions }, ...extra, next },
  };
}

const NODE_STATUS = `{{ $now := Now }}
conditions:
{{ range NodeConditions }}
- lastHeartbeatTime: {{ $now | Quote }}
  lastTransitionTime: {{ $now | Quote }}
  message: {{ .message | Quote }}
  reason: {{ .reason | Quote }}
  status: {{ .status | Quote }}
  type: {{ .type | Quote }}
{{ end }}
addresses:
- address: {{ NodeIP | Quote }}
  type: InternalIP
- address: {{ .metadata.name | Quote }}
  type: Hostname
daemonEndpoints:
  kubeletEndpoint:
    Port: {{ NodePort }}
allocatable:
{{ YAML .status.allocatable 1 }}
capacity:
{{ YAML .status.capacity 1 }}
nodeInfo:
  architecture: amd64
  operatingSystem: linux
  kubeletVersion: {{ printf "kwok-%s" Version | Quote }}
  kubeProxyVersion: ""
  containerRuntimeVersion: {{ printf "kwok-%s" Version | Quote }}
  kernelVersion: ""
  osImage: "kwok fake node"
  bootID: ""
  machineID: ""
  systemUUID: ""
phase: Running
`;

const POD_RUNNING = `{{ $now := Now }}
conditions:
- lastTransitionTime: {{ $now | Quote }}
  status: "True"
  type: Initialized
- lastTransitionTime: {{ $now | Quote }}
  status: "True"
  type: Ready
- lastTransitionTime: {{ $now | Quote }}
  status: "True"
  type: ContainersReady
{{ range .spec.readinessGates }}
- lastTransitionTime: {{ $now | Quote }}
  status: "True"
  type: {{ .conditionType | Quote }}
{{ end }}
containerStatuses:
{{ range .spec.containers }}
- image: {{ .image | Quote }}
  imageID: {{ printf "%s@sha256:0000000000000000000000000000000000000000000000000000000000000000" .image | Quote }}
  name: {{ .name | Quote }}
  ready: true
  started: true
  restartCount: 0
  state:
    running:
      startedAt: {{ $now | Quote }}
{{ end }}
initContainerStatuses:
{{ range .spec.initContainers }}
- image: {{ .image | Quote }}
  name: {{ .name | Quote }}
  ready: true
  restartCount: 0
  {{ if eq .restartPolicy "Always" }}
  started: true
  state:
    running:
      startedAt: {{ $now | Quote }}
  {{ else }}
  state:
    terminated:
      exitCode: 0
      finishedAt: {{ $now | Quote }}
      reason: Completed
      startedAt: {{ $now | Quote }}
  {{ end }}
{{ end }}
{{ with NodeIPWith .spec.nodeName }}
hostIP: {{ . | Quote }}
{{ end }}
{{ with PodIPWith .spec.nodeName ( or .spec.hostNetwork false ) ( or .metadata.uid "" ) ( or .metadata.name "" ) ( or .metadata.namespace "" ) }}
podIP: {{ . | Quote }}
{{ end }}
phase: Running
startTime: {{ $now | Quote }}
`;

const POD_IMAGE_PULL_BACKOFF = `conditions:
- type: Ready
  status: "False"
  reason: ContainersNotReady
containerStatuses:
{{ range .spec.containers }}
- image: {{ .image | Quote }}
  name: {{ .name | Quote }}
  ready: false
  restartCount: 0
  state:
    waiting:
      reason: ImagePullBackOff
      message: {{ printf "Back-off pulling image %s" .image | Quote }}
{{ end }}
phase: Pending
`;

function metric(name: string, help: string, kind: 'gauge' | 'counter', dimension: 'node' | 'pod' | 'container', value: string) {
  const labels =
    dimension === 'container'
      ? [
          { name: 'container', value: 'container.name' },
          { name: 'namespace', value: 'pod.metadata.namespace' },
          { name: 'pod', value: 'pod.metadata.name' },
        ]
      : dimension === 'pod'
        ? [
            { name: 'namespace', value: 'pod.metadata.namespace' },
            { name: 'pod', value: 'pod.metadata.name' },
          ]
        : undefined;
  return { name, help, kind, dimension, value, ...(labels ? { labels } : {}) };
}

export function kwokConfigYaml(options: KwokConfigOptions): string {
  const notDeleted = { key: '.metadata.deletionTimestamp', operator: 'DoesNotExist' };
  const pending = { key: '.status.phase', operator: 'In', values: ['Pending'] };
  const neverReady = `.metadata.annotations["${NEVER_READY_ANNOTATION}"]`;
  const { default: fallback, ...byName } = options.usage;
  const docs: unknown[] = [
    stage(
      'node-initialize',
      'Node',
      [{ key: '.status.conditions.[] | select( .type == "Ready" ) | .status', operator: 'NotIn', values: ['True'] }],
      { statusTemplate: NODE_STATUS },
    ),
    stage('pod-ready', 'Pod', [notDeleted, pending, { key: neverReady, operator: 'DoesNotExist' }], { statusTemplate: POD_RUNNING }),
    // When a node's lease lapses (kwok starved on a loaded machine), the node lifecycle controller
    // marks its pods not ready; a real kubelet reports them ready again once it is back, so this
    // stage does. A safety net only: kwok did not always act on such a status change within 30 s
    // (a test of it passed 2 runs of 3, while kwok's watches still failed: see WatchList in
    // cluster.ts), so the long node-monitor grace period (cluster.ts) is the guard that keeps nodes
    // from going NotReady in the first place.
    stage(
      'pod-ready-again',
      'Pod',
      [
        notDeleted,
        { key: '.status.phase', operator: 'In', values: ['Running'] },
        { key: '.status.conditions.[] | select( .type == "Ready" ) | .status', operator: 'NotIn', values: ['True'] },
        { key: neverReady, operator: 'DoesNotExist' },
      ],
      { statusTemplate: POD_RUNNING },
    ),
    stage(
      'pod-image-pull-backoff',
      'Pod',
      [notDeleted, pending, { key: neverReady, operator: 'Exists' }, { key: '.status.containerStatuses', operator: 'DoesNotExist' }],
      {
        statusTemplate: POD_IMAGE_PULL_BACKOFF,
      },
    ),
    stage('pod-delete', 'Pod', [{ key: '.metadata.deletionTimestamp', operator: 'Exists' }], { delete: true }),
    {
      apiVersion: API,
      kind: 'ClusterExec',
      metadata: { name: 'local' },
      spec: {
        execs: [
          {
            local: {
              workDir: options.execWorkDir,
              envs: [
                { name: 'PATH', value: options.execPath },
                { name: 'K6_NO_USAGE_REPORT', value: 'true' },
              ],
            },
          },
        ],
      },
    },
    {
      apiVersion: API,
      kind: 'ClusterResourceUsage',
      metadata: { name: 'usage' },
      spec: {
        usages: [
          ...Object.entries(byName).map(([container, usage]) => ({
            containers: [container],
            usage: {
              cpu: usage.cpuExpression ? { expression: usage.cpuExpression } : { value: usage.cpu },
              memory: { value: usage.memory },
            },
          })),
          { usage: { cpu: { value: fallback.cpu }, memory: { value: fallback.memory } } },
        ],
      },
    },
    {
      // Named after the node: kwok serves a path without {nodeName} for the Metric's own name.
      apiVersion: API,
      kind: 'Metric',
      metadata: { name: options.nodeName },
      spec: {
        path: '/metrics/resource',
        metrics: [
          metric(
            'container_cpu_usage_seconds_total',
            'Cumulative cpu time consumed by the container in core-seconds',
            'counter',
            'container',
            'pod.CumulativeUsage("cpu", container.name)',
          ),
          metric(
            'container_memory_working_set_bytes',
            'Current working set of the container in bytes',
            'gauge',
            'container',
            'pod.Usage("memory", container.name)',
          ),
          metric(
            'pod_cpu_usage_seconds_total',
            'Cumulative cpu time consumed by the pod in core-seconds',
            'counter',
            'pod',
            'pod.CumulativeUsage("cpu")',
          ),
          metric('pod_memory_working_set_bytes', 'Current working set of the pod in bytes', 'gauge', 'pod', 'pod.Usage("memory")'),
          metric(
            'node_cpu_usage_seconds_total',
            'Cumulative cpu time consumed by the node in core-seconds',
            'counter',
            'node',
            'node.CumulativeUsage("cpu")',
          ),
          metric('node_memory_working_set_bytes', 'Current working set of the node in bytes', 'gauge', 'node', 'node.Usage("memory")'),
        ],
      },
    },
  ];
  return docs.map((doc) => stringify(doc)).join('---\n');
}
