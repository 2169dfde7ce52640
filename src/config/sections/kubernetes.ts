// Kubernetes section: cluster access and mesh installation (kind and kubeconfig platforms).
import { z } from 'zod';
import { parseDurationMs } from '../duration.ts';
import { linkerdVersion } from './linkerd-version.ts';
import { FORTIO_IMAGE } from '../../tools/images.ts';
import { describeValue, stringMap, text } from '../bounded.ts';
import { LIMITS } from '../limits.ts';

/** An image reference: registries allow 255 characters for the name, plus a tag or digest. */
const IMAGE_MAX = 512;

/** kubernetes.sampleInterval's default (mesh-perf init sizes a cluster starter's repetitions by it). */
export const DEFAULT_SAMPLE_INTERVAL = '2s';

const durationText = (what: string, fallback: string) =>
  text(what, 40)
    .refine((value) => parseDurationMs(value) !== undefined, {
      abort: true,
      error: (issue) => `expected a duration for ${what} such as "5m" or "90s", got ${describeValue(issue.input)}`,
    })
    .refine((value) => parseDurationMs(value)! <= LIMITS.durationMs, {
      error: (issue) => `expected ${what} of at most 7 days, got ${describeValue(issue.input)}`,
    })
    .default(fallback)
    .describe(what);

/** An IPv4 or IPv6 prefix, e.g. 10.244.0.0/16 or fd00:10:244::/56. */
function isCidr(value: string): boolean {
  const [address, prefix, ...rest] = value.split('/');
  if (rest.length > 0 || address === undefined || prefix === undefined || !/^\d{1,3}$/.test(prefix)) return false;
  if (address.includes(':')) return /^[0-9a-f:]+$/i.test(address) && address.split('::').length <= 2 && Number(prefix) <= 128;
  const octets = address.split('.');
  return octets.length === 4 && octets.every((o) => /^\d{1,3}$/.test(o) && Number(o) <= 255) && Number(prefix) <= 32;
}

/** A kind networking range: a cluster whose default ranges overlap a network the runner must reach sets its own. */
const subnet = (what: string, range: string, fallback: string) =>
  text(what, 64)
    .refine(isCidr, {
      error: (issue) => `expected an IP prefix for ${what} such as "10.244.0.0/16", got ${describeValue(issue.input)}`,
    })
    .optional()
    .describe(`${range} address range of the cluster mesh-perf creates; default ${fallback}`);

const QUANTITY = /^\d+(\.\d+)?(m|k|M|G|Ki|Mi|Gi)?$/;
const quantity = (what: string) =>
  text(what, 40).regex(QUANTITY, {
    error: (issue) => `expected a Kubernetes quantity for ${what} such as "100m", "0.5", "64Mi", got ${describeValue(issue.input)}`,
  });

/** Requests and limits of one container; identical across modes so the comparison is fair. */
const containerResources = (what: string, cpu: string, memory: string, cpuLimit: string, memoryLimit: string) =>
  z
    .strictObject({
      cpu: quantity(`${what} CPU request`).default(cpu).describe('CPU request, a Kubernetes quantity'),
      memory: quantity(`${what} memory request`).default(memory).describe('memory request, a Kubernetes quantity'),
      cpuLimit: quantity(`${what} CPU limit`).default(cpuLimit).describe('CPU limit, a Kubernetes quantity'),
      memoryLimit: quantity(`${what} memory limit`).default(memoryLimit).describe('memory limit, a Kubernetes quantity'),
    })
    .prefault({})
    .describe(`${what} container requests/limits (recorded with the results)`);

const IMAGE_BY_DIGEST = /^[a-z0-9./_:-]+@sha256:[0-9a-f]{64}$/;
const image = (what: string, fallback: string) =>
  text(`${what} image`, IMAGE_MAX)
    .regex(IMAGE_BY_DIGEST, {
      error: (issue) => `expected ${what} pinned by digest (name@sha256:<64 hex>), got ${describeValue(issue.input)}`,
    })
    .default(fallback)
    .describe(`${what} image, pinned by digest`);

// Workload images may also be pinned by a version tag: the digest each pod actually ran is
// recorded with the results (environment.images.running). The default echo image is one: fortio
// publishes each release tag as a multi-platform image, but no public source establishes the
// multi-arch index digest of 1.69.4 (the one digest found came from an arm64-only deployment,
// and a single-arch digest would never start on amd64 runners). See src/tools/pins.ts.
// name[:registry-port][/more]:tag. Written without two adjacent repeats over the same characters:
// the previous form (`[a-z0-9./_-]+(:\d+)?\/?[a-z0-9./_-]*:…`) backtracked quadratically and
// took 62 s on "a/" × 100,000.
const IMAGE_BY_VERSION_TAG = /^[a-z0-9./_-]+(?::\d[a-z0-9./_-]*)?:v?\d[\w.-]*$/;
/** A workload image, pinned by digest or by a version tag; also a mode's or an arm's own echo image. */
export const pinnedWorkloadImage = (what: string) =>
  text(`${what} image`, IMAGE_MAX).refine((value) => IMAGE_BY_DIGEST.test(value) || IMAGE_BY_VERSION_TAG.test(value), {
    error: (issue) =>
      `expected ${what} pinned by digest (name@sha256:<64 hex>) or by a version tag (name:1.2.3, not "latest"), got ${describeValue(issue.input)}`,
  });
const workloadImage = (what: string, fallback: string) =>
  pinnedWorkloadImage(what).default(fallback).describe(`${what} image, pinned by digest or version tag (the digest that ran is recorded)`);
// Traffic entering through Istio's ingress gateway (seeds 000 and 004): a Gateway API Gateway
// with gatewayClassName istio, which istiod deploys and scales; one HTTPRoute per mode.
const ingressSchema = z
  .strictObject({
    replicas: z
      .number({ error: (issue) => `expected a whole number of gateway pods, got ${describeValue(issue.input)}` })
      .int({ error: (issue) => `expected a whole number of gateway pods, got ${String(issue.input)}` })
      .min(1, { error: (issue) => `expected at least 1 gateway pod, got ${String(issue.input)}` })
      .max(50, { error: (issue) => `expected at most 50 gateway pods, got ${String(issue.input)}` })
      .default(1)
      .describe('ingress gateway pods (Istio scales its Deployment to exactly this many)'),
    tls: z
      .boolean()
      .default(false)
      .describe('HTTPS with a self-signed certificate mesh-perf creates (never printed); k6 skips verification'),
  })
  .describe("route every mode's traffic through Istio's ingress gateway (Gateway API); the client pod sends to the gateway's Service");

/** kubernetes.istio: the run's Istio install, and what a mode's own revision (modes[].istio) leaves unset. */
export const istioSettingsSchema = z
  .strictObject({
    version: text('kubernetes.istio.version', 40)
      .regex(/^\d+\.\d+\.\d+$/)
      .default('1.30.3')
      .describe('Istio version to install; one mesh-perf pins, or one whose istioctl is in the tool cache'),
    hub: text('kubernetes.istio.hub')
      .optional()
      .describe('image registry for Istio images, e.g. gcr.io/istio-release (avoids Docker Hub limits)'),
    set: stringMap('kubernetes.istio.set').default({}).describe('extra istioctl --set values'),
  })
  .prefault({})
  .describe('the Istio mesh-perf installs for istio-* modes (istioctl, ambient profile)');

export const kubernetesSchema = z
  .strictObject({
    kubeconfig: text('kubernetes.kubeconfig').optional().describe('path to a kubeconfig; default KUBECONFIG or ~/.kube/config'),
    context: text('kubernetes.context', 253).optional().describe("kubeconfig context to use; default the kubeconfig's current context"),
    replicas: z
      .number()
      .int()
      .min(1)
      .max(90)
      .optional()
      .describe('echo server pods per mode; default 1, 2 when a mode has arms (each arm on at least 2 pods)'),
    // Meshes choose L7 or L4 handling from the Service port's name/appProtocol (source benchmark 003 ran both).
    serviceProtocol: z
      .enum(['http', 'tcp'])
      .default('http')
      .describe("how the echo Service's port is declared: http (L7 handling) or tcp (L4)"),
    namespacePrefix: text('kubernetes.namespacePrefix', 20)
      .regex(/^[a-z0-9]([a-z0-9-]{0,18}[a-z0-9])?$/, {
        error: (issue) => `expected ≤ 20 lowercase letters, digits or '-', got ${describeValue(issue.input)}`,
      })
      .default('mesh-perf')
      .describe('namespaces are <prefix>-<mode>'),
    readyTimeout: durationText('time to wait for a mesh or workload to become ready', '5m'),
    sampleInterval: durationText('interval of CPU/memory samples during a repetition', DEFAULT_SAMPLE_INTERVAL),
    apiOutage: durationText(
      'how long the API server may stop answering mid-run: calls are retried with backoff meanwhile and k6 runs on in its pod; past this the run stops (exit 3) with its partial results',
      '60s',
    ),
    kind: z
      .strictObject({
        clusterName: text('kubernetes.kind.clusterName', 32)
          .regex(/^[a-z0-9]([a-z0-9-]{0,30}[a-z0-9])?$/)
          .default('mesh-perf')
          .describe('name of the kind cluster mesh-perf creates, or reuses when it exists'),
        nodeImage: image('kind node', 'kindest/node:v1.35.0@sha256:452d707d4862f52530247495d180205e029056831160e22870e37e3f6c1ac31f'),
        workers: z.number().int().min(2).max(6).default(2).describe('worker nodes; ≥ 2 so client and server sit on different nodes'),
        keep: z.boolean().default(false).describe('leave the cluster running after the run'),
        podSubnet: subnet('kubernetes.kind.podSubnet', 'pod', "kind's 10.244.0.0/16"),
        serviceSubnet: subnet('kubernetes.kind.serviceSubnet', 'Service', "kind's 10.96.0.0/16"),
      })
      .prefault({})
      .describe('platform kind: the cluster mesh-perf creates'),
    istio: istioSettingsSchema,
    linkerd: z
      .strictObject({
        version: linkerdVersion('edge-26.9.1'),
        set: stringMap('kubernetes.linkerd.set').default({}).describe('extra linkerd install --set values'),
      })
      .prefault({})
      .describe('the Linkerd mesh-perf installs for linkerd modes (its CLI, native sidecars)'),
    gatewayApi: z
      .strictObject({
        version: text('kubernetes.gatewayApi.version', 40)
          .regex(/^\d+\.\d+\.\d+$/)
          .default('1.5.1')
          .describe('Gateway API CRD version installed first'),
      })
      .prefault({})
      .describe('the Gateway API CRDs that waypoints, the ingress gateway and Linkerd use'),
    ingress: ingressSchema.optional(),
    resources: z
      .strictObject({
        app: containerResources('echo server', '50m', '32Mi', '1', '256Mi'),
        client: containerResources('k6 client', '200m', '128Mi', '2', '1Gi'),
        proxy: containerResources('sidecar proxy', '20m', '32Mi', '1', '256Mi'),
      })
      .prefault({})
      .describe('requests and limits of the containers mesh-perf deploys, the same in every mode'),
    images: z
      .strictObject({
        echo: workloadImage('echo server (Fortio)', FORTIO_IMAGE),
        client: workloadImage('k6 client', 'grafana/k6:1.4.2@sha256:3656673de3f30424e8ebcfa46acd9558d83b6a43612d0f668ffeac953950c6c7'),
        registry: text('kubernetes.images.registry', IMAGE_MAX)
          .regex(/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:\d+)?(\/[a-z0-9._-]+)*$/, {
            error: (issue) =>
              `expected a registry host and optional path without a scheme, e.g. mirror.example.com/dockerhub, got ${describeValue(issue.input)}`,
          })
          .optional()
          .describe(
            'registry mirror for every image mesh-perf deploys (echo server, k6 client, k6-operator runners, Istio and Linkerd): the host is replaced, path, tag and digest kept',
          ),
      })
      .prefault({})
      .describe('the images mesh-perf deploys'),
    manifests: z
      .strictObject({
        server: text('kubernetes.manifests.server')
          .optional()
          .describe('your own server manifests (multi-document YAML) instead of the Fortio echo server'),
        client: text('kubernetes.manifests.client').optional().describe('your own k6 client pod manifest instead of the built-in one'),
      })
      .prefault({})
      .describe('your own manifests in place of the built-in workload'),
  })
  .prefault({})
  .describe('platforms kind and kubeconfig: the cluster, the meshes and the workload');
