// The objects one repetition creates on a k6-operator cluster: a ConfigMap with the k6 script
// (and the runner wrapper, see wrapper.ts) and a TestRun with `parallelism: N`. Pure.
//
// k6-operator hands out execution segments itself: runner Job `<name>-<k>` (k = 1..N) runs
// `k6 run --execution-segment=(k-1)/N:k/N --execution-segment-sequence=0,1/N,...,1 <args>
// <script> --address=0.0.0.0:6565 --paused --tag instance_id=k --tag testrun_name=<name>`
// (pkg/segmentation and pkg/resources/jobs/runner.go at the pinned tag). The group engine's
// instance i (0-based) must therefore carry exactly the segment of runner i+1; that is checked
// here, so the merge reads runner k's data as instance k-1.
import type { K6Invocation } from '../../../load/types.ts';
import { COMPONENT, MODE } from '../ownership.ts';
import { mirrorImage } from '../../../config/image-mirror.ts';
import { K6_OPERATOR_STARTER_IMAGE, TESTRUN_API } from './version.ts';
import { IMAGE_PATH, POD_NAME_ENV, WORK_ROOT, WRAPPER_DIR, WRAPPER_KEY, WRAPPER_SCRIPT } from './wrapper.ts';

/** Labels k6-operator puts on every pod of a TestRun (runner pods also get runner=true). */
export const OPERATOR_CR_LABEL = 'k6_cr';
export const OPERATOR_RUNNER_LABEL = 'runner';
/** The k6 container's name in runner pods. */
export const RUNNER_CONTAINER = 'k6';
const HOSTNAME = 'kubernetes.io/hostname';
/** Name of the raw-samples CSV in every runner's work directory. */
export const RAW_NAME = 'mesh-perf-raw.csv';
/** Same label as the client pod: the echo pods' required anti-affinity keeps runners off their nodes, and resource samples count runners as the client group. */
export const CLIENT_NAME_LABEL = { 'app.kubernetes.io/name': 'mesh-perf-client' };
/** Keeps the initializer and starter pods out of the mesh (they must complete; see buildTestRun). */
const OUT_OF_MESH = {
  labels: { 'sidecar.istio.io/inject': 'false', 'istio.io/dataplane-mode': 'none' },
  annotations: { 'sidecar.istio.io/inject': 'false', 'linkerd.io/inject': 'disabled' },
};

/** k6-operator's labels on every runner pod: newLabels (app, k6_cr) and runner (pkg/resources/jobs at the pinned tag). */
export const RUNNER_POD_LABELS = { app: 'k6', [OPERATOR_RUNNER_LABEL]: 'true' };
/** k6's REST API in a runner pod: k6-operator's controller polls it and its starter resumes the runners through it. */
export const RUNNER_API_PORT = 6565;
export const RUNNER_MTLS_EXCEPTION = 'mesh-perf-k6-runners';

/**
 * Under Istio, port 6565 of the runner pods in a mode's namespace accepts plaintext: k6-operator's
 * controller polls it (internal/controller/k6_start.go: `http.Get("http://%v:6565/v1/status")`)
 * and its starter resumes the runners (pkg/resources/containers/curl_start.go: `curl -X PATCH
 * http://%s/v1/status`), both from outside the mesh; under the mesh-wide STRICT policy the
 * runners' sidecar or ztunnel would refuse them and the TestRun would never start. Only that port
 * of those pods: the measured traffic (runner to echo) stays under STRICT. mtls is left unset so
 * the runners inherit the namespace's mode on every other port (Istio merges a workload policy's
 * port-level exception over the mesh's STRICT: pilot/pkg/serviceregistry/ambient/authorization.go
 * for ztunnel, pilot/pkg/security/authn/policy_applier.go for sidecars).
 */
export function runnerPeerAuthentication(): Record<string, unknown> {
  return {
    apiVersion: 'security.istio.io/v1',
    kind: 'PeerAuthentication',
    metadata: { name: RUNNER_MTLS_EXCEPTION },
    spec: {
      selector: { matchLabels: { ...RUNNER_POD_LABELS } },
      portLevelMtls: { [RUNNER_API_PORT]: { mode: 'PERMISSIVE' } },
    },
  };
}

export interface RunnerPlacement {
  namespace: string;
  /** The namespace of the echo pods this TestRun loads (the mode's; `namespace` too unless the runners sit in the ingress namespace). */
  echoNamespace: string;
  mode: string;
  /** The client image (its pinned k6), already from the mirror when one is set. */
  image: string;
  /** kubernetes.images.registry: the starter image comes from it too. */
  registry?: string;
  resources: { requests: { cpu: string; memory: string }; limits: { cpu: string; memory: string } };
  /** managed-by, suite and run id. */
  ownerLabels: Record<string, string>;
}

/** k6-operator's segment for runner k of N (1-based), as pkg/segmentation builds it. */
export function operatorSegment(k: number, total: number): { segment: string; sequence: string } {
  const point = (i: number) => (i === 0 ? '0' : i === total ? '1' : `${i}/${total}`);
  const sequence = Array.from({ length: total + 1 }, (_, i) => point(i)).join(',');
  return { segment: `${point(k - 1)}:${point(k)}`, sequence };
}

/**
 * The k6 arguments all runners share: the invocation's own (with its raw-samples file renamed
 * to RAW_NAME and `--out=x` split into `--out x`, the form k6-operator's argument parser leaves
 * out of `k6 archive`), without execution segments (k6-operator adds them), then -e pairs.
 */
export function runnerArgs(invocation: K6Invocation): string[] {
  const args: string[] = [];
  const source = invocation.args;
  for (let i = 0; i < source.length; i++) {
    let arg = source[i]!;
    if (invocation.rawFile) arg = arg.split(invocation.rawFile).join(RAW_NAME);
    if (/^--execution-segment(-sequence)?$/.test(arg)) {
      i++;
      continue;
    }
    if (/^--execution-segment(-sequence)?=/.test(arg)) continue;
    const out = /^(--out|-o)=(.*)$/.exec(arg);
    if (out) args.push('--out', out[2]!);
    else args.push(arg);
  }
  for (const [key, value] of Object.entries(invocation.env)) args.push('-e', `${key}=${value}`);
  // k6-operator puts these in the container command, where the kubelet expands $(VAR): $$ keeps a literal $(.
  return args.map((arg) => arg.replaceAll('$(', '$$$$('));
}

/**
 * One TestRun runs one script with one argument list on every runner: the group's invocations
 * must agree on everything but their instance slice, and each slice must be the one k6-operator
 * gives the runner at its position.
 */
export function checkGroup(invocations: readonly K6Invocation[]): void {
  if (invocations.length === 0) throw new Error('k6-operator: a TestRun needs at least one invocation');
  const total = invocations.length;
  const shape = (inv: K6Invocation) =>
    JSON.stringify({
      files: inv.files,
      entry: inv.entry,
      args: runnerArgs(inv),
      summaryFile: inv.summaryFile,
      raw: inv.rawFile !== undefined,
      workDir: inv.workDir,
    });
  const first = shape(invocations[0]!);
  invocations.forEach((inv, i) => {
    if (shape(inv) !== first)
      throw new Error(
        `k6-operator: instance ${i} differs from instance 0 in its script, arguments or environment; one TestRun runs one of each`,
      );
    if (total === 1) return;
    const want = operatorSegment(i + 1, total);
    const slice = inv.instance;
    if (!slice || slice.index !== i || slice.count !== total || slice.segment !== want.segment || slice.sequence !== want.sequence)
      throw new Error(
        `k6-operator: instance ${i} of ${total} must run segment ${want.segment} of ${want.sequence} (runner ${i + 1}), got ${slice ? `${slice.segment} of ${slice.sequence}` : 'no segment'}`,
      );
  });
}

export interface TestRunObjects {
  configMap: Record<string, unknown>;
  testRun: Record<string, unknown>;
}

export function buildTestRun(name: string, invocations: readonly K6Invocation[], placement: RunnerPlacement): TestRunObjects {
  checkGroup(invocations);
  const invocation = invocations[0]!;
  const labels = { ...placement.ownerLabels, [MODE]: placement.mode, [COMPONENT]: 'load' };
  const configMap = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: placement.namespace, labels },
    data: { ...invocation.files, [WRAPPER_KEY]: WRAPPER_SCRIPT },
  };
  const outOfMesh = (extra: Record<string, unknown>) => ({
    image: extra.image,
    metadata: { labels: { ...labels, ...OUT_OF_MESH.labels }, annotations: { ...OUT_OF_MESH.annotations } },
  });
  const testRun = {
    apiVersion: TESTRUN_API,
    kind: 'TestRun',
    metadata: { name, namespace: placement.namespace, labels },
    spec: {
      parallelism: invocations.length,
      script: { configMap: { name, file: invocation.entry } },
      args: runnerArgs(invocation),
      runner: {
        image: placement.image,
        // Runner pods sit in the mode's namespace, so the namespace's mesh enrolment applies to
        // them exactly as to the client pod.
        metadata: { labels: { ...labels, ...CLIENT_NAME_LABEL } },
        resources: placement.resources,
        affinity: {
          podAntiAffinity: {
            // One runner per node (N runners are N nodes' worth of load generation), none beside
            // an echo pod of the mode it loads; like the client pods of load.generators, a rule
            // the scheduler may not bend, so a cluster too small shows as a Pending runner with
            // the scheduler's reason. Only the mode's own echo pods: the other modes' idle ones
            // may sit on any node (they avoid only the idle client pod), and k6-operator starts
            // nothing until every runner runs (k6_start.go: `if count != Parallelism`).
            requiredDuringSchedulingIgnoredDuringExecution: [
              {
                topologyKey: HOSTNAME,
                labelSelector: { matchLabels: { [OPERATOR_CR_LABEL]: name, [OPERATOR_RUNNER_LABEL]: 'true' } },
              },
              {
                topologyKey: HOSTNAME,
                labelSelector: { matchLabels: { 'app.kubernetes.io/name': 'mesh-perf-echo' } },
                namespaces: [placement.echoNamespace],
              },
            ],
          },
        },
        env: [
          { name: 'PATH', value: `${WRAPPER_DIR}:${IMAGE_PATH}` },
          { name: POD_NAME_ENV, valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
          { name: 'K6_NO_USAGE_REPORT', value: 'true' },
          // mesh-perf chooses its k6 (load/pacer-choice.ts): k6 must not fetch another for an extension.
          { name: 'K6_AUTO_EXTENSION_RESOLUTION', value: 'false' },
        ],
        volumes: [
          { name: 'mesh-perf-bin', configMap: { name, items: [{ key: WRAPPER_KEY, path: 'k6', mode: 0o755 }] } },
          { name: 'mesh-perf-work', emptyDir: {} },
        ],
        volumeMounts: [
          { name: 'mesh-perf-bin', mountPath: WRAPPER_DIR, readOnly: true },
          { name: 'mesh-perf-work', mountPath: WORK_ROOT },
        ],
        // k6-operator's default liveness probe asks k6's REST API, which ends with k6; the
        // wrapper must outlive k6 until its files are read.
        livenessProbe: { exec: { command: ['true'] }, periodSeconds: 30 },
      },
      // The initializer (k6 archive + inspect) and the starter (curl to resume the runners)
      // must complete; a classic sidecar would keep them running forever, and neither sends
      // measured traffic. The starter (and the controller) reach the runners' REST API as
      // plaintext clients: under Istio the runners' port 6565 is PERMISSIVE for that
      // (runnerPeerAuthentication); Linkerd's default policy admits them.
      initializer: outOfMesh({ image: placement.image }),
      starter: outOfMesh({ image: mirrorImage(K6_OPERATOR_STARTER_IMAGE, placement.registry) }),
    },
  };
  return { configMap, testRun };
}
