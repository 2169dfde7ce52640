// What one run holds in a cluster, shared by the steps that bring it up and take it down
// (steps/) and by the trials that use it (platform.ts): the connection, the modes' placements and
// rendered workloads, what was installed, how many client pods there are and where they can go.
// Steps set it as they go; teardown reads it to remove exactly what this run made.
import type { ModeConfig, MeshKind } from '../../config/schema.ts';
import { parseDurationMs } from '../../config/duration.ts';
import type { Config } from '../../config/validate.ts';
import { UsageError, EnvironmentError } from '../../util/errors.ts';
import type { GeneratorCapacity } from '../../load/ceiling.ts';
import { type LoadEngine, loadEngineOf } from '../../config/engine-checks.ts';
import type { PlatformContext } from '../types.ts';
import { loadAccess, probeServer, rawRequest, type ClusterAccess } from './access.ts';
import { Applier } from './apply.ts';
import { meshKindOf } from './mesh/modes.ts';
import type { MeshContext, MeshInstallation } from './mesh/types.ts';
import { revisionName } from '../../config/istio-revisions.ts';
import { gatewayName, ingressNamespace } from './ingress.ts';
import { ownerLabels } from './ownership.ts';
import type { NodeView } from './placement.ts';
import type { Workload } from './workloads.ts';

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

export class ClusterRun {
  access?: ClusterAccess;
  applier?: Applier;
  serverVersion = 'unknown';
  /** A kubeconfig and context a first step made (kind's cluster), in place of the config's. */
  clusterAccess?: { kubeconfig: string; context: string };
  placements: ModePlacement[] = [];
  workload?: Workload;
  meshes: MeshInstallation[] = [];
  gatewayApi?: { version: string; installed: boolean };
  /** Echo pods per mode namespace right now (scaled per load profile). */
  replicasOf = new Map<string, number>();
  /** Client pods per client namespace: the most generators any profile uses. */
  clientCount = 1;
  /** Where k6 instances can run (read from the nodes when a profile asks for more than one, or auto). */
  capacity?: GeneratorCapacity;
  /** The one schedulable node echo server and client share, on a single-node cluster. */
  sharedNode?: string;
  /** True once anything may have been created in the cluster (teardown has something to remove). */
  created = false;
  /** in-pod k6 or k6-operator: one engine for every profile of a run (config/engine-checks.ts). */
  readonly engine: LoadEngine;

  constructor(
    readonly context: PlatformContext,
    readonly cwd: string,
    readonly env: NodeJS.ProcessEnv,
  ) {
    this.engine = loadEngineOf(context.config.profiles);
  }

  get config(): Config {
    return this.context.config;
  }

  get k8s(): Config['kubernetes'] {
    return this.context.config.kubernetes;
  }

  get readyTimeoutMs(): number {
    return parseDurationMs(this.k8s.readyTimeout) ?? 300_000;
  }

  get ownLabels(): Record<string, string> {
    return ownerLabels(this.context.config.suite, this.context.runId, this.context.keptUntilDown);
  }

  /** kubernetes.ingress and the namespace of its gateways and client; undefined without one. */
  get ingress(): { settings: NonNullable<Config['kubernetes']['ingress']>; namespace: string } | undefined {
    const settings = this.k8s.ingress;
    return settings ? { settings, namespace: ingressNamespace(this.k8s.namespacePrefix) } : undefined;
  }

  /** Connects and checks the server answers; fails within seconds when it does not. */
  async connect(): Promise<ClusterAccess> {
    if (this.access) return this.access;
    const access = loadAccess(this.clusterAccess ?? { kubeconfig: this.k8s.kubeconfig, context: this.k8s.context }, this.env);
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
      flags: { kubeconfigPath: this.access.kubeconfigPath, context: this.clusterAccess?.context ?? this.k8s.context },
      log: this.context.log,
      signal: this.context.signal,
      ownerLabels: this.ownLabels,
      readyTimeoutMs: this.readyTimeoutMs,
      env: this.env,
    };
  }

  namespaceOf(modeName: string): string {
    const placement = this.placements.find((p) => p.mode.name === modeName);
    if (!placement) throw new Error(`mode ${modeName} is not placed`);
    return placement.namespace;
  }

  /** Where a mode's client pods are: its own namespace, or the ingress gateway's. */
  clientNamespaceOf(modeName: string): string {
    return this.ingress?.namespace ?? this.namespaceOf(modeName);
  }

  /**
   * The ingress Gateways, by Istio revision: the run's own (undefined) for modes without one, and
   * one per mode with its own revision, so an A/B arm's traffic crosses its own version's gateway.
   */
  gatewayRevisions(): (string | undefined)[] {
    return [...new Set(this.placements.map((p) => revisionName(p.mode)))];
  }

  /** The Gateway a mode enters through (kubernetes.ingress): its Istio revision's own, or the run's. */
  gatewayOf(modeName: string): string {
    const placement = this.placements.find((p) => p.mode.name === modeName);
    return gatewayName(placement ? revisionName(placement.mode) : undefined);
  }

  async listNodes(access: ClusterAccess): Promise<NodeView[]> {
    const response = await rawRequest(access, '/api/v1/nodes', { timeoutMs: 15_000 });
    if (response.status !== 200)
      throw new EnvironmentError(
        `could not list the cluster's nodes to place the client pods of load.generators: HTTP ${response.status}: ${response.body.slice(0, 200)}${response.status === 403 ? ' (grant "list" on nodes)' : ''}`,
      );
    return (JSON.parse(response.body) as { items: NodeView[] }).items;
  }
}
