// The kubeconfig platform: a cluster the user gives us. prepare() installs the meshes the modes
// need (once per cluster, with their own CLIs), creates one labelled namespace per mode, deploys
// the echo server and the k6 client pods in each (one per load generator: the most any profile
// uses, checked against the schedulable nodes first) and waits for explicit readiness. teardown()
// removes exactly what this run created: its namespaces (by run id), and meshes or CRDs it
// installed. Nothing it does not own is touched.
import type { ModeConfig, MeshKind } from '../../config/schema.ts';
import { parseDurationMs } from '../../config/duration.ts';
import type { LoadRunner } from '../../load/types.ts';
import { ensureGatewayApi } from './mesh/gateway-api.ts';
import { applyWaypoint, installIstio, ISTIO_NAMESPACE, refuseForeignRevisions, uninstallIstio } from './mesh/istio.ts';
import { installLinkerd, LINKERD_NAMESPACE, uninstallLinkerd } from './mesh/linkerd.ts';
import { ingressPath, INGRESS_USE_WAYPOINT, meshKindOf, namespaceSetup, needsGatewayApi, usesIstio } from './mesh/modes.ts';
import { modeMtlsPolicies } from './mesh/mtls-policy.ts';
import { ProxyPathProbe } from './mesh/path-probe.ts';
import { istioRevisions, revisionName } from '../../config/istio-revisions.ts';
import { deleteLabelledClusterObjects } from './mesh/cleanup.ts';
import type { MeshContext, MeshInstallation } from './mesh/types.ts';
import { KubeletResourceSampler } from './resources/kubelet-sampler.ts';
import { EnvironmentError, UsageError } from '../../util/errors.ts';
import type { ModeTarget } from '../../load/types.ts';
import type { ModeRecord, PathProbe, Platform, PlatformContext, PlatformProvenance, ResourceSampler } from '../types.ts';
import { loadAccess, probeServer, rawRequest, type ClusterAccess } from './access.ts';
import { Applier } from './apply.ts';
import { collectEnvironment } from './environment.ts';
import { controlPlaneImages } from './control-plane-images.ts';
import { InClusterK6Runner } from './k6-runner.ts';
import { type LoadEngine, loadEngineOf } from '../../config/engine-checks.ts';
import { deleteLabelledTestRuns } from './k6-operator/cleanup.ts';
import { operatorFacts, requireTestRunCrd } from './k6-operator/crd.ts';
import { operatorRunner } from './k6-operator/setup.ts';
import { runnerPeerAuthentication } from './k6-operator/testrun.ts';
import {
  claimNamespace,
  COMPONENT,
  deleteNamespaces,
  MANAGED_BY,
  MANAGER,
  MODE,
  RUN_ID,
  ownerLabels,
  readNamespace,
  workloadNamespaces,
} from './ownership.ts';
import { podTarget, rolloutTarget, waitReady } from './wait.ts';
import { ECHO_GRPC_PORT, ECHO_HTTP_PORT, ECHO_SERVICE, renderWorkload, type Workload } from './workloads.ts';
import { GATEWAY_NAME, gatewayName, gatewayObjects, gatewayUrl, ingressNamespace, routeObject, waitGatewayReady } from './ingress.ts';
import { scaleEcho } from './scale.ts';
import { clientObjects, clientPodName } from './clients.ts';
import {
  clientFitProblem,
  clusterLoadCapacity,
  nodesReservedForEcho,
  runnerFitProblem,
  cpuMillicoresOf,
  schedulableNodes,
  type NodeView,
  type SchedulableNode,
  withoutClientAvoidance,
} from './placement.ts';
import { CLIENT_NAME } from './resources/groups.ts';
import { chooseGenerators, type GeneratorCapacity } from '../../load/ceiling.ts';
import { collectRawSamples, RAW_CSV_METRICS } from '../../load/raw-samples.ts';
import type { Config, LoadProfile } from '../../config/validate.ts';

export interface ModePlacement {
  mode: ModeConfig;
  mesh: MeshKind;
  namespace: string;
}

export function placeModes(modes: readonly ModeConfig[], prefix: string): ModePlacement[] {
  return modes.map((mode, index) => {
    const namespace = `${prefix}-${mode.name}`;
    if (namespace.length > 63)
      throw new UsageError(
        `modes[${index}].name: namespace "${namespace}" is longer than 63 characters; shorten the mode name or kubernetes.namespacePrefix`,
      );
    return { mode, mesh: meshKindOf(mode, index), namespace };
  });
}

const TEARDOWN_TIMEOUT_MS = 5 * 60_000;

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
}

export class KubernetesPlatform implements Platform {
  readonly name: string;
  private access?: ClusterAccess;
  private applier?: Applier;
  private serverVersion = 'unknown';
  private placements: ModePlacement[] = [];
  private workload?: Workload;
  private meshes: MeshInstallation[] = [];
  private gatewayApi?: { version: string; installed: boolean };
  /** Echo pods per mode namespace right now (scaled per load profile). */
  private replicasOf = new Map<string, number>();
  /** Client pods per client namespace: the most generators any profile uses. */
  private clientCount = 1;
  /** Where k6 instances can run (read from the nodes when a profile asks for more than one, or auto). */
  private capacity?: GeneratorCapacity;
  /** Client pods the current trial's k6 instances use, per client namespace (the resource sampler counts those). */
  private clientsInUse = new Map<string, number>();
  private prepared = false;
  /** The one schedulable node echo server and client share, on a single-node cluster (checkSingleNode). */
  private sharedNode?: string;
  /** Built once, on first ask after prepare: every trial runs k6 and samples resources through them. */
  private runner?: LoadRunner;
  private sampler?: ResourceSampler;
  private probe?: PathProbe;
  private tornDown = false;
  private readonly k6ApiPortBase?: number;
  private readonly targetOverride?: KubernetesPlatformOptions['targetOverride'];
  private readonly cwd: string;
  private readonly env: NodeJS.ProcessEnv;
  /** in-pod k6 or k6-operator: one engine for every profile of a run (config/engine-checks.ts). */
  private readonly engine: LoadEngine;

  constructor(
    private readonly context: PlatformContext,
    options: KubernetesPlatformOptions = {},
  ) {
    this.name = options.name ?? 'kubeconfig';
    this.cwd = options.cwd ?? process.cwd();
    this.env = options.env ?? process.env;
    this.targetOverride = options.targetOverride;
    this.k6ApiPortBase = options.k6ApiPortBase;
    this.engine = loadEngineOf(context.config.profiles);
  }

  private get k8s() {
    return this.context.config.kubernetes;
  }

  get readyTimeoutMs(): number {
    return parseDurationMs(this.k8s.readyTimeout) ?? 300_000;
  }

  /** Connects and checks the server answers; fails within seconds when it does not. */
  async connect(): Promise<ClusterAccess> {
    if (this.access) return this.access;
    const access = loadAccess({ kubeconfig: this.k8s.kubeconfig, context: this.k8s.context }, this.env);
    this.serverVersion = (await probeServer(access, 5000)).gitVersion;
    this.access = access;
    this.applier = new Applier(access);
    return access;
  }

  meshContext(): MeshContext {
    if (!this.access || !this.applier) throw new Error('connect() first');
    return {
      access: this.access,
      applier: this.applier,
      config: this.context.config,
      flags: { kubeconfigPath: this.access.kubeconfigPath, context: this.k8s.context },
      log: this.context.log,
      signal: this.context.signal,
      ownerLabels: this.ownLabels,
      readyTimeoutMs: this.readyTimeoutMs,
      env: this.env,
    };
  }

  /**
   * Brings the run up as named steps, in this order because each needs the one before: the
   * cluster checked (nothing created until every refusal has had its say), the meshes installed,
   * the namespaces claimed, the ingress gateways and routes (kubernetes.ingress), the k6 clients
   * (placed before the echo pods, which avoid their nodes), the waypoints, the servers; then the
   * waits. teardown removes what any of them made, found by the run's labels.
   */
  async prepare(): Promise<void> {
    const log = this.context.log;
    this.placements = placeModes(this.context.config.modes, this.k8s.namespacePrefix);
    this.workload = renderWorkload(this.context.config, this.cwd);
    log.phase('Cluster');
    const access = await this.connect();
    log.info(`Kubernetes ${this.serverVersion} at ${access.server} (context "${access.contextName}")`);
    // Before anything is installed: without k6-operator the run cannot measure at all.
    if (this.engine === 'k6-operator') await requireTestRunCrd(access);
    await this.checkClientFit(access);
    await this.checkSingleNode(access);
    // Modes with their own Istio revision: refused here, before anything is created, when the
    // cluster's Istio is someone else's or a revision name is taken (mesh/istio.ts).
    const revisions = istioRevisions(
      this.placements.map((p) => p.mode),
      this.k8s.istio,
    );
    if (revisions.length > 0) await refuseForeignRevisions(this.meshContext(), revisions);
    this.prepared = true; // from here on teardown has something to remove
    await this.installMeshes(revisions);

    log.phase('Workloads');
    await this.claimNamespaces(access);
    await this.applyRunnerMtlsExceptions();
    await this.applyIngress();
    await this.startClients(access);
    const mesh = this.meshContext();
    for (const p of this.placements) if (p.mesh === 'istio-waypoint') await applyWaypoint(mesh, p.namespace, revisionName(p.mode));
    await this.startServers(access);
    const ingress = this.ingress;
    if (ingress)
      await Promise.all(
        this.gatewayRevisions().map((revision) =>
          waitGatewayReady(access, ingress.namespace, ingress.settings.replicas, this.readyTimeoutMs, this.context.signal, revision),
        ),
      );
    log.info(`ready: ${this.placements.map((p) => `${p.mode.name} → ${p.namespace}`).join(', ')}`);
  }

  /** kubernetes.ingress and the namespace of its gateways and client; undefined without one. */
  private get ingress(): { settings: NonNullable<Config['kubernetes']['ingress']>; namespace: string } | undefined {
    const settings = this.k8s.ingress;
    return settings ? { settings, namespace: ingressNamespace(this.k8s.namespacePrefix) } : undefined;
  }

  private get ownLabels(): Record<string, string> {
    return ownerLabels(this.context.config.suite, this.context.runId);
  }

  /** The Gateway API CRDs, Istio (with each mode's own revision) and Linkerd, as the modes need them. */
  private async installMeshes(revisions: ReturnType<typeof istioRevisions>): Promise<void> {
    const mesh = this.meshContext();
    const kinds = new Set(this.placements.map((p) => p.mesh));
    const ingress = this.ingress !== undefined;
    // The ingress is Istio's gateway: it needs the Gateway API CRDs and Istio, whatever the modes.
    if ([...kinds].some(needsGatewayApi) || ingress) this.gatewayApi = await ensureGatewayApi(mesh);
    if ([...kinds].some(usesIstio) || (ingress && !kinds.has('existing')))
      this.meshes.push(await installIstio(mesh, kinds.has('istio-ambient') || kinds.has('istio-waypoint'), revisions));
    if (kinds.has('linkerd')) this.meshes.push(await installLinkerd(mesh));
  }

  /** Each mode's namespace, enrolled in its mesh, and the ingress gateway's. */
  private async claimNamespaces(access: ClusterAccess): Promise<void> {
    const owner = { suite: this.context.config.suite, runId: this.context.runId };
    for (const p of this.placements) {
      const setup = namespaceSetup(p.mode, p.mesh);
      await claimNamespace(
        access,
        { name: p.namespace, ...owner, labels: { ...setup.labels, [MODE]: p.mode.name }, annotations: setup.annotations },
        this.context.signal,
      );
    }
    const ingress = this.ingress;
    if (ingress)
      await claimNamespace(access, { name: ingress.namespace, ...owner, labels: { [COMPONENT]: 'ingress' } }, this.context.signal);
  }

  /**
   * k6-operator's controller and starter reach the runners' REST API in plaintext from outside
   * the mesh: under Istio (whose mesh-wide policy mesh-perf sets to STRICT) each Istio mode's
   * namespace, where its runners run, accepts plaintext on their port 6565 alone
   * (runnerPeerAuthentication). With an ingress the runners run in its namespace, outside any mesh.
   */
  private async applyRunnerMtlsExceptions(): Promise<void> {
    if (this.engine !== 'k6-operator' || this.ingress) return;
    for (const p of this.placements.filter((p) => usesIstio(p.mesh)))
      await this.applier!.apply([runnerPeerAuthentication() as never], {
        namespace: p.namespace,
        labels: this.ownLabels,
        signal: this.context.signal,
      });
  }

  /** The ingress Gateways (one per Istio revision the modes use) and each mode's HTTPRoute on its own. */
  private async applyIngress(): Promise<void> {
    const ingress = this.ingress;
    if (!ingress) return;
    const { settings, namespace } = ingress;
    const labels = this.ownLabels;
    const revisions = this.gatewayRevisions();
    await this.applier!.apply(gatewayObjects(settings, namespace, this.context.runId, revisions), {
      namespace,
      labels,
      signal: this.context.signal,
    });
    for (const p of this.placements)
      await this.applier!.apply([routeObject(p.mode.name, namespace, revisionName(p.mode))], {
        namespace: p.namespace,
        labels,
        signal: this.context.signal,
      });
    const names = revisions.map((revision) => `${gatewayName(revision)}${revision ? ` (Istio revision ${revision})` : ''}`);
    this.context.log.info(
      `ingress: Gateway${names.length === 1 ? '' : 's'} ${names.join(', ')} (gatewayClassName istio, ${settings.replicas} pod${settings.replicas === 1 ? '' : 's'}${names.length === 1 ? '' : ' each'}, ${settings.tls ? 'HTTPS, self-signed certificate' : 'HTTP'}) in ${namespace}`,
    );
  }

  /** The k6 client pods, ready: in each mode's namespace, or, with an ingress, one set outside any mesh in the gateway's. */
  private async startClients(access: ClusterAccess): Promise<void> {
    const workload = this.workload!;
    const ingress = this.ingress;
    const namespaces = ingress ? [ingress.namespace] : this.placements.map((p) => p.namespace);
    const clients = clientObjects(workload.client, workload.clientPod, this.clientCount);
    for (const namespace of namespaces)
      await this.applier!.apply(clients, { namespace, labels: this.ownLabels, signal: this.context.signal });
    await Promise.all(
      namespaces.flatMap((namespace) =>
        Array.from({ length: this.clientCount }, (_, index) =>
          waitReady(access, podTarget(namespace, clientPodName(workload.clientPod, index)), this.readyTimeoutMs, this.context.signal),
        ),
      ),
    );
  }

  /**
   * Each mode's server, ready. A mode with its own echo image or server manifests (an A/B arm's,
   * modes[].echoImage, modes[].serverManifests) gets its own, and its own Deployments are what it
   * waits for.
   */
  private async startServers(access: ClusterAccess): Promise<void> {
    const servers = this.placements
      .map((p) =>
        p.mode.echoImage || p.mode.serverManifests || p.mode.arm
          ? renderWorkload(this.context.config, this.cwd, undefined, {
              echoImage: p.mode.echoImage,
              serverManifests: p.mode.serverManifests,
              arm: p.mode.arm,
            }).server
          : this.workload!.server,
      )
      .map((server) => (this.sharedNode ? withoutClientAvoidance(server, CLIENT_NAME) : server));
    for (const [i, p] of this.placements.entries())
      await this.applier!.apply(servers[i]!, { namespace: p.namespace, labels: this.ownLabels, signal: this.context.signal });
    await Promise.all(
      this.placements.flatMap((p, i) =>
        servers[i]!.filter((o) => o.kind === 'Deployment')
          .map((o) => o.metadata!.name!)
          .map((name) =>
            waitReady(
              access,
              rolloutTarget('Deployment', p.namespace, name, name === 'echo' ? 'app=echo' : undefined),
              this.readyTimeoutMs,
              this.context.signal,
            ),
          ),
      ),
    );
    for (const p of this.placements) this.replicasOf.set(p.namespace, this.k8s.replicas);
  }

  /**
   * The most k6 instances any profile runs as (load.generators, auto chosen from the nodes): each
   * mode gets that many client pods, on separate nodes, apart from the echo server (clients.ts).
   * A cluster with too few schedulable nodes, or nodes too small for a client's CPU request, is
   * refused here, before anything is created, with the numbers (exit 3: the config may be right
   * for a larger cluster; kind's worker count is checked with the config, exit 2).
   */
  private async checkClientFit(access: ClusterAccess): Promise<void> {
    const profiles = this.context.config.profiles;
    if (profiles.every((p) => p.generators === 1)) return;
    const nodes = await this.schedulableNodes(access);
    const client = this.k8s.resources.client;
    const requestMillicores = cpuMillicoresOf(client.cpu) ?? 0;
    const operator = this.engine === 'k6-operator';
    // k6-operator's runners keep off every node their mode's echo pods may take (one each).
    const echoPods = profiles.map((p) => p.replicas ?? this.k8s.replicas);
    const reserved = nodesReservedForEcho(this.context.config);
    this.capacity = clusterLoadCapacity(nodes, cpuMillicoresOf(client.cpuLimit) ?? requestMillicores, requestMillicores, reserved);
    const choices = profiles.map((p) => chooseGenerators(p, this.capacity!));
    const counts = choices.map((c) => c.count);
    const instances = Math.max(1, ...counts);
    if (instances === 1) return;
    const fieldOf = (name: string, i: number) => (profiles.length > 1 ? `load[${i}].${name}` : `load.${name}`);
    const index = counts.indexOf(instances);
    const field = fieldOf('generators', index);
    if (operator) {
      // Each profile's runners against its own echo pod count: the tightest decides.
      for (const [i, count] of counts.entries()) {
        if (count < 2) continue;
        const echoField = profiles[i]!.replicas === undefined ? 'kubernetes.replicas' : fieldOf('replicas', i);
        const problem = runnerFitProblem(nodes, {
          clients: count,
          field: fieldOf('generators', i),
          requestMillicores,
          echoPods: echoPods[i]!,
          echoField,
        });
        if (problem) throw new EnvironmentError(problem);
      }
    } else {
      const problem = clientFitProblem(nodes, { clients: instances, field, requestMillicores });
      if (problem) throw new EnvironmentError(problem);
    }
    profiles.forEach((p, i) => {
      if (p.generators === 'auto') this.context.log.info(`k6 for "${p.name}": ${choices[i]!.reason}`);
    });
    if (operator) {
      // The runners send the load; one client pod stays only to read the image's k6 version.
      this.context.log.info(
        `up to ${instances} k6-operator runners per repetition (${field}), each on its own node, apart from its mode's echo pods (${nodes.length} schedulable nodes)`,
      );
      return;
    }
    this.clientCount = instances;
    this.context.log.info(
      `${instances} k6 client pods per mode (${field}), each on its own node, apart from the echo server (${nodes.length} schedulable nodes)`,
    );
  }

  /**
   * A cluster with a single schedulable node (a one-node k3s or minikube, the real-node tier's)
   * cannot keep the echo server off the k6 client's node: the built-in rule that does would leave
   * the echo pods Pending until readyTimeout. The run goes on with both on that node, said once and
   * recorded (environment.placement): their CPU competes alike in every mode, so overheads stay
   * comparable, while absolute figures are a shared node's. Without permission to list nodes the
   * manifests stay as they are.
   */
  private async checkSingleNode(access: ClusterAccess): Promise<void> {
    if (this.clientCount > 1 || this.engine === 'k6-operator') return;
    const nodes = await this.schedulableNodes(access).catch(() => undefined);
    if (nodes?.length !== 1) return;
    this.sharedNode = nodes[0]!.name;
    this.context.log.warn(
      `the cluster has one schedulable node (${this.sharedNode}): the echo server runs beside the k6 client there, as nothing else can. Their CPU competes alike in every mode, so overheads stay comparable; absolute figures are a shared node's (recorded as environment.placement)`,
    );
  }

  private async schedulableNodes(access: ClusterAccess): Promise<SchedulableNode[]> {
    const response = await rawRequest(access, '/api/v1/nodes', { timeoutMs: 15_000 });
    if (response.status !== 200)
      throw new EnvironmentError(
        `could not list the cluster's nodes to place the client pods of load.generators: HTTP ${response.status}: ${response.body.slice(0, 200)}${response.status === 403 ? ' (grant "list" on nodes)' : ''}`,
      );
    return schedulableNodes((JSON.parse(response.body) as { items: NodeView[] }).items);
  }

  /** True once anything may have been created in the cluster. */
  hasCreated(): boolean {
    return this.prepared;
  }

  namespaceOf(modeName: string): string {
    const placement = this.placements.find((p) => p.mode.name === modeName);
    if (!placement) throw new Error(`mode ${modeName} is not placed`);
    return placement.namespace;
  }

  /**
   * The ingress Gateways, by Istio revision: the run's own (undefined) for modes without one, and
   * one per mode with its own revision, so an A/B arm's traffic crosses its own version's gateway.
   */
  private gatewayRevisions(): (string | undefined)[] {
    return [...new Set(this.placements.map((p) => revisionName(p.mode)))];
  }

  /** The Gateway a mode enters through (kubernetes.ingress): its Istio revision's own, or the run's. */
  private gatewayOf(modeName: string): string {
    const placement = this.placements.find((p) => p.mode.name === modeName);
    return gatewayName(placement ? revisionName(placement.mode) : undefined);
  }

  /** Where a mode's client pods are: its own namespace, or the ingress gateway's. */
  private clientNamespaceOf(modeName: string): string {
    return this.ingress?.namespace ?? this.namespaceOf(modeName);
  }

  target(mode: ModeConfig): ModeTarget {
    const namespace = this.namespaceOf(mode.name);
    const host = `${ECHO_SERVICE}.${namespace}.svc.cluster.local`;
    const mesh = this.placements.find((p) => p.mode.name === mode.name)!.mesh;
    const ingress = this.ingress;
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
    if (!this.access) return;
    const namespace = this.namespaceOf(mode.name);
    // Under k6-operator the runner pods (no client index) are the client group; the client pod idles.
    this.clientsInUse.set(this.clientNamespaceOf(mode.name), this.engine === 'k6-operator' ? 0 : generators);
    const want = profile.replicas ?? this.k8s.replicas;
    if (this.replicasOf.get(namespace) === want) return;
    this.context.log.info(`scaling ${mode.name} to ${want} echo pod${want === 1 ? '' : 's'} for profile ${profile.name}`);
    const started = Date.now();
    this.replicasOf.delete(namespace); // unknown until the scale completes
    const profiles = this.context.config.profiles;
    const index = profiles.findIndex((p) => p.name === profile.name);
    const field =
      profile.replicas === undefined ? 'kubernetes.replicas' : profiles.length > 1 ? `load[${index}].replicas` : 'load.replicas';
    await scaleEcho(this.access, namespace, want, field, this.readyTimeoutMs, this.context.signal);
    this.replicasOf.set(namespace, want);
    this.context.log.info(
      `${mode.name}: ${want} echo pod${want === 1 ? '' : 's'} ready and listed as endpoints after ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }

  loadRunner(): LoadRunner {
    this.runner ??= this.buildRunner();
    return this.runner;
  }

  private buildRunner(): LoadRunner {
    if (!this.access || !this.workload) throw new EnvironmentError('the Kubernetes platform was not prepared');
    const workload = this.workload;
    const first = this.placements[0]!.mode.name;
    const gatewayNamespace = this.ingress?.namespace;
    const clientNamespace = (mode: string | undefined) => gatewayNamespace ?? this.namespaceOf(mode ?? first);
    const inPod = new InClusterK6Runner(
      this.access,
      (mode, index = 0) => ({
        namespace: clientNamespace(mode),
        pod: clientPodName(workload.clientPod, index),
        container: workload.clientContainer,
      }),
      {
        ...(this.capacity ? { capacity: this.capacity } : {}),
        ...(this.k6ApiPortBase ? { apiPortBase: this.k6ApiPortBase } : {}),
        raw: { metrics: RAW_CSV_METRICS, parse: (csv) => collectRawSamples(oneChunk(csv)) },
      },
    );
    if (this.engine !== 'k6-operator') return inPod;
    return operatorRunner({
      access: this.access,
      config: this.context.config,
      runId: this.context.runId,
      log: this.context.log,
      readyTimeoutMs: this.readyTimeoutMs,
      namespaceOf: clientNamespace,
      echoNamespaceOf: (mode) => this.namespaceOf(mode ?? first),
      version: () => inPod.version(),
      ...(this.capacity ? { capacity: this.capacity } : {}),
    });
  }

  resourceSampler(): ResourceSampler | undefined {
    if (!this.access) return undefined;
    const meshNamespaces = this.meshes.map((m) => m.namespace);
    this.sampler ??= new KubeletResourceSampler(this.access, {
      intervalMs: parseDurationMs(this.k8s.sampleInterval) ?? 2000,
      modeNamespaces: Object.fromEntries(this.placements.map((p) => [p.mode.name, p.namespace])),
      meshNamespaces,
      ...(this.ingress ? { gatewayNamespaces: [this.ingress.namespace], gatewayOf: (mode: string) => this.gatewayOf(mode) } : {}),
      log: this.context.log,
      clientsInUse: (mode) => this.clientsInUse.get(this.clientNamespaceOf(mode)) ?? this.clientCount,
    });
    return this.sampler;
  }

  pathProbe(): PathProbe | undefined {
    if (!this.access) return undefined;
    const ingress = this.ingress;
    this.probe ??= new ProxyPathProbe(this.access, {
      log: this.context.log,
      modes: Object.fromEntries(
        this.placements.map((p) => [
          p.mode.name,
          {
            kind: p.mesh,
            namespace: p.namespace,
            ...(ingress ? { gateway: { namespace: ingress.namespace, name: this.gatewayOf(p.mode.name) } } : {}),
          },
        ]),
      ),
    });
    return this.probe;
  }

  /** Per mode: the mutual TLS policy in force for its server (read from the cluster), and its namespace's enrolment. */
  async modeRecords(): Promise<Record<string, ModeRecord>> {
    if (!this.access) return {};
    const setups = this.placements.map((p) => ({ p, setup: namespaceSetup(p.mode, p.mesh) }));
    const mtls = await modeMtlsPolicies(
      this.access,
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
    if (!this.access || this.meshes.length === 0) return {};
    const images = await controlPlaneImages(
      this.access,
      this.meshes.map((m) => m.namespace),
    );
    return Object.keys(images).length > 0 ? { images } : {};
  }

  async environment(): Promise<Record<string, unknown>> {
    if (!this.access) return { platform: this.name };
    const ingress = this.ingress;
    // Where the traffic entered (never the certificate: only the Secret's name).
    const gateway = ingress
      ? {
          ingress: {
            namespace: ingress.namespace,
            gateway: GATEWAY_NAME,
            // Modes under their own Istio revision enter through that revision's own Gateway.
            ...(this.gatewayRevisions().some(Boolean)
              ? { gateways: Object.fromEntries(this.placements.map((p) => [p.mode.name, gatewayName(revisionName(p.mode))])) }
              : {}),
            gatewayClassName: 'istio',
            replicas: ingress.settings.replicas,
            tls: ingress.settings.tls,
          },
        }
      : {};
    const collected = await collectEnvironment({
      access: this.access,
      config: this.context.config,
      platform: this.name,
      serverVersion: this.serverVersion,
      namespaces: Object.fromEntries(this.placements.map((p) => [p.mode.name, p.namespace])),
      meshes: this.meshes,
      gatewayApi: this.gatewayApi,
      modes: this.placements.map((p) => ({ name: p.mode.name, kind: p.mesh })),
    });
    const loadEngine = this.engine === 'k6-operator' ? { loadEngine: { name: 'k6-operator', ...(await operatorFacts(this.access)) } } : {};
    const placement = this.sharedNode ? { placement: { sharedNode: this.sharedNode, clientAndServer: 'same node' } } : {};
    return { ...collected, ...gateway, ...loadEngine, ...placement };
  }

  /** Removes what this run created. Runs even after cancellation (it ignores the run's signal). */
  async teardown(): Promise<void> {
    if (!this.prepared || this.tornDown || !this.access) return;
    this.tornDown = true;
    const signal = AbortSignal.timeout(TEARDOWN_TIMEOUT_MS);
    const mesh = { ...this.meshContext(), signal };
    const runSelector = `${MANAGED_BY}=${MANAGER},${RUN_ID}=${this.context.runId}`;
    const problems: string[] = [];
    const attempt = async (what: string, step: () => Promise<unknown>) => {
      try {
        await step();
      } catch (error) {
        problems.push(`${what}: ${(error as Error).message.split('\n')[0]}`);
      }
    };
    // Workloads first, meshes after: `istioctl uninstall --purge` deletes the istio-cni-node
    // DaemonSet, whose agent removes /opt/cni/bin/istio-cni as it stops (Istio 1.30
    // cni/pkg/install/install.go, Installer.Cleanup), and a pod still terminating then cannot
    // be torn down ("failed to find plugin istio-cni", istio/istio#59846). So the TestRuns, then
    // every namespace of the run but the meshes' own, waited until gone (their pods with them),
    // then the meshes (istioctl needs istio-system to still exist), then their namespaces.
    const istioOurs = await this.createdThisRun(ISTIO_NAMESPACE);
    const linkerdOurs = await this.createdThisRun(LINKERD_NAMESPACE);
    if (this.engine === 'k6-operator') await attempt('k6-operator TestRuns', () => deleteLabelledTestRuns(this.access!, runSelector));
    await attempt('namespaces', () => deleteNamespaces(this.access!, workloadNamespaces(runSelector), TEARDOWN_TIMEOUT_MS, signal));
    if (istioOurs) await attempt('Istio uninstall', () => uninstallIstio(mesh));
    if (linkerdOurs) await attempt('Linkerd removal', () => uninstallLinkerd(mesh, runSelector));
    await attempt('mesh namespaces', () => deleteNamespaces(this.access!, runSelector, TEARDOWN_TIMEOUT_MS, signal));
    await attempt('cluster-scoped objects', () => deleteLabelledClusterObjects(this.access!, runSelector));
    if (problems.length > 0) {
      throw new EnvironmentError(
        `cleanup of run ${this.context.runId} was incomplete:\n  ${problems.join('\n  ')}\nRemove the rest with \`mesh-perf down --config FILE\`.`,
      );
    }
  }

  private async createdThisRun(namespace: string): Promise<boolean> {
    const found = await readNamespace(this.access!, namespace).catch(() => undefined);
    return found?.metadata.labels?.[RUN_ID] === this.context.runId && found.metadata.labels?.[COMPONENT] !== undefined;
  }
}

async function* oneChunk(text: string): AsyncIterable<string> {
  yield text;
}
