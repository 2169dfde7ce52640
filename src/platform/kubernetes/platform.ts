// The kubeconfig platform: a cluster the user gives us. prepare() runs the steps of steps/index.ts
// (the cluster checked, the meshes the modes need installed once per cluster with their own CLIs,
// one labelled namespace per mode, the echo server and the k6 client pods in each, explicit
// readiness); teardown() runs their undos backwards, removing exactly what this run created: its
// namespaces (by run id), and meshes or CRDs it installed. Nothing it does not own is touched.
// Between the two, the trials: where each mode's traffic goes, scaling per load profile, k6 in
// the client pods (or k6-operator), the kubelet's CPU and memory, the proxies' own counters.
import type { ModeConfig } from '../../config/schema.ts';
import { parseDurationMs } from '../../config/duration.ts';
import type { LoadRunner } from '../../load/types.ts';
import { ingressPath, INGRESS_USE_WAYPOINT, namespaceSetup } from './mesh/modes.ts';
import { modeMtlsPolicies } from './mesh/mtls-policy.ts';
import { ProxyPathProbe } from './mesh/path-probe.ts';
import { ApiOutage } from './api-outage.ts';
import { PodDisruptionWatch } from './disruptions.ts';
import { revisionName } from '../../config/istio-revisions.ts';
import type { MeshContext } from './mesh/types.ts';
import { KubeletResourceSampler } from './resources/kubelet-sampler.ts';
import { EnvironmentError } from '../../util/errors.ts';
import type { ModeTarget } from '../../load/types.ts';
import type {
  DisruptionWatch,
  ModeRecord,
  PathProbe,
  Platform,
  PlatformContext,
  PlatformProvenance,
  ResourceSampler,
  TeardownOptions,
} from '../types.ts';
import type { ClusterAccess } from './access.ts';
import { ClusterRun, placeModes } from './cluster-run.ts';
import { collectEnvironment } from './environment.ts';
import { controlPlaneImages } from './control-plane-images.ts';
import { InClusterK6Runner } from './k6-runner.ts';
import { operatorFacts } from './k6-operator/crd.ts';
import { operatorRunner } from './k6-operator/setup.ts';
import { ECHO_GRPC_PORT, ECHO_HTTP_PORT, ECHO_SERVICE, renderWorkload } from './workloads.ts';
import { GATEWAY_NAME, gatewayName, gatewayUrl } from './ingress.ts';
import { scaleEcho } from './scale.ts';
import { clientPodName } from './clients.ts';
import { collectRawSamples, RAW_CSV_METRICS } from '../../load/raw-samples.ts';
import type { LoadProfile } from '../../config/validate.ts';
import { CLUSTER_STEPS } from './steps/index.ts';
import { type ClusterStep, downSteps, TEARDOWN_TIMEOUT_MS, upSteps } from './steps/step.ts';

export { type ModePlacement, placeModes } from './cluster-run.ts';

export interface KubernetesPlatformOptions {
  name?: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /**
   * Where k6 sends a mode's traffic instead of the echo Service. For control planes whose pods
   * are emulated (kwok), where the client's commands run on the host and cluster DNS does not exist.
   */
  targetOverride?: (mode: string, namespace: string) => { url: string; grpc?: string };
  /**
   * First port of the k6 REST APIs of a group of instances (6565 by default). Under kwok every
   * client pod is a process on one host, so concurrent tests pass a free one.
   */
  k6ApiPortBase?: number;
  /** Steps before the cluster's own (kind: creating the cluster), in the same list. */
  firstSteps?: readonly ClusterStep[];
}

export class KubernetesPlatform implements Platform {
  readonly name: string;
  /** The run's state in the cluster, which the steps fill and the trials read. */
  protected readonly run: ClusterRun;
  protected readonly steps: readonly ClusterStep[];
  /** Client pods the current trial's k6 instances use, per client namespace (the resource sampler counts those). */
  private clientsInUse = new Map<string, number>();
  /** Built once, on first ask after prepare: every trial runs k6 and samples resources through them. */
  private runner?: LoadRunner;
  private sampler?: ResourceSampler;
  private probe?: PathProbe;
  private apiOutage?: ApiOutage;
  private disruptions?: DisruptionWatch;
  private tornDown = false;
  private readonly k6ApiPortBase?: number;
  private readonly targetOverride?: KubernetesPlatformOptions['targetOverride'];

  constructor(
    protected readonly context: PlatformContext,
    options: KubernetesPlatformOptions = {},
  ) {
    this.name = options.name ?? 'kubeconfig';
    this.run = new ClusterRun(context, options.cwd ?? process.cwd(), options.env ?? process.env);
    this.steps = [...(options.firstSteps ?? []), ...CLUSTER_STEPS];
    this.targetOverride = options.targetOverride;
    this.k6ApiPortBase = options.k6ApiPortBase;
  }

  private get k8s() {
    return this.context.config.kubernetes;
  }

  get readyTimeoutMs(): number {
    return this.run.readyTimeoutMs;
  }

  /** One API server outage at a time, shared by every call around the repetitions (api-outage.ts). */
  private get outage(): ApiOutage {
    this.apiOutage ??= new ApiOutage({
      limitMs: parseDurationMs(this.k8s.apiOutage) ?? 60_000,
      log: this.context.log,
      signal: this.context.signal,
      server: this.run.access?.server ?? 'of the kubeconfig',
    });
    return this.apiOutage;
  }

  /** Connects and checks the server answers; fails within seconds when it does not. */
  connect(): Promise<ClusterAccess> {
    return this.run.connect();
  }

  meshContext(): MeshContext {
    return this.run.meshContext();
  }

  /**
   * Brings the run up as the steps of steps/index.ts, in order, each needing the one before: the
   * cluster checked (nothing created until every refusal has had its say), the meshes installed,
   * the namespaces claimed, the ingress gateways and routes (kubernetes.ingress), the k6 clients
   * (placed before the echo pods, which avoid their nodes), the waypoints, the servers and the
   * waits. The modes' placements and workloads are rendered from the config first: a config
   * problem is said before any cluster is touched. teardown is the same list backwards.
   */
  async prepare(): Promise<void> {
    this.run.placements = placeModes(this.context.config.modes, this.k8s.namespacePrefix);
    this.run.workload = renderWorkload(this.context.config, this.run.cwd);
    await upSteps(this.steps, this.run);
  }

  /** True once anything may have been created in the cluster. */
  hasCreated(): boolean {
    return this.run.created;
  }

  namespaceOf(modeName: string): string {
    return this.run.namespaceOf(modeName);
  }

  target(mode: ModeConfig): ModeTarget {
    const namespace = this.namespaceOf(mode.name);
    const host = `${ECHO_SERVICE}.${namespace}.svc.cluster.local`;
    const mesh = this.run.placements.find((p) => p.mode.name === mode.name)!.mesh;
    const ingress = this.run.ingress;
    if (ingress) {
      const url = gatewayUrl(ingress.namespace, ingress.settings.tls, mode.name, revisionName(mode));
      const address = this.targetOverride?.(mode.name, namespace) ?? { url };
      return {
        mode: mode.name,
        ...address,
        env: { ...mode.env },
        description: `${mesh} via ingress gateway${revisionName(mode) ? ` ${gatewayName(revisionName(mode))}` : ''}${ingressPath(mesh) === 'gateway+waypoint' ? ` and the waypoint (${INGRESS_USE_WAYPOINT}=true)` : ''}`,
        ...(ingress.settings.tls ? { insecureTls: true } : {}),
      };
    }
    const address = this.targetOverride?.(mode.name, namespace) ?? {
      url: `http://${host}:${ECHO_HTTP_PORT}/`,
      grpc: `${host}:${ECHO_GRPC_PORT}`,
    };
    return { mode: mode.name, ...address, env: { ...mode.env }, description: mesh };
  }

  /**
   * Scales the trial's mode to its profile's pod count and waits until the new pods take traffic;
   * notes how many client pods the trial's k6 instances use, for the client group's usage.
   */
  async beforeTrial(mode: ModeConfig, profile: LoadProfile, generators: number): Promise<void> {
    if (!this.run.access) return;
    const namespace = this.namespaceOf(mode.name);
    // Under k6-operator the runner pods (no client index) are the client group; the client pod idles.
    this.clientsInUse.set(this.run.clientNamespaceOf(mode.name), this.run.engine === 'k6-operator' ? 0 : generators);
    const want = profile.replicas ?? this.k8s.replicas;
    if (this.run.replicasOf.get(namespace) === want) return;
    this.context.log.info(`scaling ${mode.name} to ${want} echo pod${want === 1 ? '' : 's'} for profile ${profile.name}`);
    const started = Date.now();
    this.run.replicasOf.delete(namespace); // unknown until the scale completes
    const profiles = this.context.config.profiles;
    const index = profiles.findIndex((p) => p.name === profile.name);
    const field =
      profile.replicas === undefined ? 'kubernetes.replicas' : profiles.length > 1 ? `load[${index}].replicas` : 'load.replicas';
    await scaleEcho(this.run.access, namespace, want, field, this.readyTimeoutMs, this.context.signal);
    this.run.replicasOf.set(namespace, want);
    this.context.log.info(
      `${mode.name}: ${want} echo pod${want === 1 ? '' : 's'} ready and listed as endpoints after ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }

  loadRunner(): LoadRunner {
    this.runner ??= this.buildRunner();
    return this.runner;
  }

  private buildRunner(): LoadRunner {
    if (!this.run.access || !this.run.workload) throw new EnvironmentError('the Kubernetes platform was not prepared');
    const workload = this.run.workload;
    const first = this.run.placements[0]!.mode.name;
    const gatewayNamespace = this.run.ingress?.namespace;
    const clientNamespace = (mode: string | undefined) => gatewayNamespace ?? this.namespaceOf(mode ?? first);
    const inPod = new InClusterK6Runner(
      this.run.access,
      (mode, index = 0) => ({
        namespace: clientNamespace(mode),
        pod: clientPodName(workload.clientPod, index),
        container: workload.clientContainer,
      }),
      {
        ...(this.run.capacity ? { capacity: this.run.capacity } : {}),
        ...(this.k6ApiPortBase ? { apiPortBase: this.k6ApiPortBase } : {}),
        raw: { metrics: RAW_CSV_METRICS, parse: (csv) => collectRawSamples(oneChunk(csv)) },
        outage: this.outage,
      },
    );
    if (this.run.engine !== 'k6-operator') return inPod;
    return operatorRunner({
      access: this.run.access,
      config: this.context.config,
      runId: this.context.runId,
      log: this.context.log,
      readyTimeoutMs: this.readyTimeoutMs,
      namespaceOf: clientNamespace,
      echoNamespaceOf: (mode) => this.namespaceOf(mode ?? first),
      version: () => inPod.version(),
      pacer: () => inPod.pacer(),
      ...(this.run.capacity ? { capacity: this.run.capacity } : {}),
    });
  }

  resourceSampler(): ResourceSampler | undefined {
    if (!this.run.access) return undefined;
    const meshNamespaces = this.run.meshes.map((m) => m.namespace);
    this.sampler ??= new KubeletResourceSampler(this.run.access, {
      intervalMs: parseDurationMs(this.k8s.sampleInterval) ?? 2000,
      modeNamespaces: Object.fromEntries(this.run.placements.map((p) => [p.mode.name, p.namespace])),
      meshNamespaces,
      ...(this.run.ingress
        ? { gatewayNamespaces: [this.run.ingress.namespace], gatewayOf: (mode: string) => this.run.gatewayOf(mode) }
        : {}),
      log: this.context.log,
      clientsInUse: (mode) => this.clientsInUse.get(this.run.clientNamespaceOf(mode)) ?? this.run.clientCount,
    });
    return this.sampler;
  }

  pathProbe(): PathProbe | undefined {
    if (!this.run.access) return undefined;
    const ingress = this.run.ingress;
    this.probe ??= new ProxyPathProbe(this.run.access, {
      log: this.context.log,
      modes: Object.fromEntries(
        this.run.placements.map((p) => [
          p.mode.name,
          {
            kind: p.mesh,
            namespace: p.namespace,
            ...(ingress ? { gateway: { namespace: ingress.namespace, name: this.run.gatewayOf(p.mode.name) } } : {}),
          },
        ]),
      ),
    });
    return this.probe;
  }

  disruptionWatch(): DisruptionWatch | undefined {
    if (!this.run.access) return undefined;
    this.disruptions ??= new PodDisruptionWatch(this.run.access, {
      modes: Object.fromEntries(
        this.run.placements.map((p) => [
          p.mode.name,
          { kind: p.mesh, namespace: p.namespace, clientNamespace: this.run.clientNamespaceOf(p.mode.name) },
        ]),
      ),
      readyTimeoutMs: this.readyTimeoutMs,
      outage: this.outage,
      signal: this.context.signal,
    });
    return this.disruptions;
  }

  /** Per mode: the mutual TLS policy in force for its server (read from the cluster), and its namespace's enrolment. */
  async modeRecords(): Promise<Record<string, ModeRecord>> {
    if (!this.run.access) return {};
    const setups = this.run.placements.map((p) => ({ p, setup: namespaceSetup(p.mode, p.mesh) }));
    const mtls = await modeMtlsPolicies(
      this.run.access,
      setups.map(({ p, setup }) => ({ name: p.mode.name, mesh: p.mesh, namespace: p.namespace, annotations: setup.annotations })),
    );
    return Object.fromEntries(
      setups.map(({ p, setup }) => [
        p.mode.name,
        { ...(mtls[p.mode.name] ? { mtls: mtls[p.mode.name] } : {}), enrolment: { labels: setup.labels, annotations: setup.annotations } },
      ]),
    );
  }

  /** The images the meshes' control planes and node agents ran (their namespaces' pods). */
  async provenance(): Promise<PlatformProvenance> {
    if (!this.run.access || this.run.meshes.length === 0) return {};
    const images = await controlPlaneImages(
      this.run.access,
      this.run.meshes.map((m) => m.namespace),
    );
    return Object.keys(images).length > 0 ? { images } : {};
  }

  async environment(): Promise<Record<string, unknown>> {
    if (!this.run.access) return { platform: this.name };
    const ingress = this.run.ingress;
    // Where the traffic entered (never the certificate: only the Secret's name).
    const gateway = ingress
      ? {
          ingress: {
            namespace: ingress.namespace,
            gateway: GATEWAY_NAME,
            // Modes under their own Istio revision enter through that revision's own Gateway.
            ...(this.run.gatewayRevisions().some(Boolean)
              ? { gateways: Object.fromEntries(this.run.placements.map((p) => [p.mode.name, gatewayName(revisionName(p.mode))])) }
              : {}),
            gatewayClassName: 'istio',
            replicas: ingress.settings.replicas,
            tls: ingress.settings.tls,
          },
        }
      : {};
    const collected = await collectEnvironment({
      access: this.run.access,
      config: this.context.config,
      platform: this.name,
      serverVersion: this.run.serverVersion,
      namespaces: Object.fromEntries(this.run.placements.map((p) => [p.mode.name, p.namespace])),
      meshes: this.run.meshes,
      gatewayApi: this.run.gatewayApi,
      modes: this.run.placements.map((p) => ({ name: p.mode.name, kind: p.mesh })),
    });
    const loadEngine =
      this.run.engine === 'k6-operator' ? { loadEngine: { name: 'k6-operator', ...(await operatorFacts(this.run.access)) } } : {};
    const placement = this.run.sharedNode ? { placement: { sharedNode: this.run.sharedNode, clientAndServer: 'same node' } } : {};
    return { ...collected, ...gateway, ...loadEngine, ...placement };
  }

  /**
   * Removes what this run created: the steps' undos, last step first (steps/step.ts). Runs even
   * after cancellation (it ignores the run's signal, with a deadline of its own).
   */
  async teardown(options: TeardownOptions = {}): Promise<void> {
    if (this.tornDown) return;
    this.tornDown = true;
    await downSteps(this.steps, this.run, options, AbortSignal.timeout(TEARDOWN_TIMEOUT_MS));
  }
}

async function* oneChunk(text: string): AsyncIterable<string> {
  yield text;
}
