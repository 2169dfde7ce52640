// Samples CPU and memory per container during a repetition from every node's kubelet resource
// metrics, through the API server's node proxy (/api/v1/nodes/<node>/proxy/metrics/resource),
// so no metrics-server is needed. Scrapes run on an interval from start() to stop(); stop()
// aggregates them per group (app, sidecar, client, ztunnel, waypoint, cni, control-plane).
import type { ResourceSampler } from '../../types.ts';
import type { ResourceUsage } from '../../../results/types.ts';
import type { Logger } from '../../../util/log.ts';
import { rawRequest, type ClusterAccess } from '../access.ts';
import { parsePrometheusText } from './prometheus.ts';
import { aggregateScrapes, containerSamples, type Scrape } from './aggregate.ts';
import type { MeasuredWindow } from '../../../load/types.ts';
import { minimumCpuWindowMs } from '../../../plan/kubelet-refresh.ts';
import { groupOf, type ContainerIdentity } from './groups.ts';

const MAX_SAMPLING_MS = 2 * 60 * 60_000;

export interface SamplerOptions {
  intervalMs: number;
  /** Mode name → its namespace. */
  modeNamespaces: Record<string, string>;
  /** Namespaces of mesh installations to report alongside every mode (istio-system, linkerd). */
  meshNamespaces: string[];
  /** The ingress gateway's namespace, reported as its own group alongside every mode. */
  gatewayNamespaces?: string[];
  /** The Gateway a mode's traffic enters through (its Istio revision's own, or the run's): only its pods are the mode's gateway group. */
  gatewayOf?: (mode: string) => string;
  log: Logger;
  /**
   * How many of a mode's client pods the current trial's k6 instances use (load.generators of its
   * profile). A mode has as many client pods as its largest profile needs; the idle ones are left
   * out of the client group, which sums the pods that sent the load.
   */
  clientsInUse?: (mode: string) => number;
}

export class KubeletResourceSampler implements ResourceSampler {
  private scrapes: Scrape[] = [];
  private timer?: NodeJS.Timeout;
  private inFlight: Promise<void> = Promise.resolve();
  private mode?: string;
  private nodes: string[] = [];
  private podLabels = new Map<string, Record<string, string>>();
  private failures: string[] = [];
  // One sampler serves every repetition of a run (start … stop per repetition): each warning below
  // is said once per mode (or node), not once per repetition.
  private readonly unavailableWarned = new Set<string>();
  private readonly tooShortWarned = new Set<string>();
  private readonly silentNodesWarned = new Set<string>();
  /** Nodes whose kubelet answered at least once during the current mode. */
  private answeredNodes = new Set<string>();

  constructor(
    private readonly access: ClusterAccess,
    private readonly options: SamplerOptions,
  ) {}

  start(mode: string): void {
    this.stopTimer();
    this.mode = mode;
    this.scrapes = [];
    this.failures = [];
    this.answeredNodes.clear();
    this.inFlight = this.refreshInventory().then(() => this.scrapeOnce());
    const started = Date.now();
    this.timer = setInterval(() => {
      // A repetition that failed never calls stop(); do not scrape forever after it.
      if (Date.now() - started > MAX_SAMPLING_MS) return this.stopTimer();
      this.inFlight = this.inFlight.then(() => this.scrapeOnce());
    }, this.options.intervalMs);
    this.timer.unref();
  }

  async stop(achievedRps: number, window?: MeasuredWindow): Promise<ResourceUsage[]> {
    this.stopTimer();
    await this.inFlight;
    await this.scrapeOnce();
    if (this.scrapes.length < 2) {
      if (!this.unavailableWarned.has(this.mode!)) {
        this.unavailableWarned.add(this.mode!);
        const why = this.failures[0] ? `: ${this.failures[0]}` : '';
        this.options.log.warn(
          `resource metrics unavailable for mode ${this.mode} (fewer than two kubelet scrapes succeeded${why}); CPU/memory are left out of the results`,
        );
      }
      return [];
    }
    this.warnSilentNodes();
    const modeNamespace = this.mode ? this.options.modeNamespaces[this.mode] : undefined;
    const context = {
      modeNamespaces: new Set(modeNamespace ? [modeNamespace] : []),
      meshNamespaces: new Set(this.options.meshNamespaces),
      gatewayNamespaces: new Set(this.options.gatewayNamespaces ?? []),
      ...(this.mode && this.options.gatewayOf ? { gateway: this.options.gatewayOf(this.mode) } : {}),
      ...(this.mode && this.options.clientsInUse ? { clientsInUse: this.options.clientsInUse(this.mode) } : {}),
    };
    const { usage, tooFewSamples } = aggregateScrapes(
      this.scrapes,
      (c) => {
        const group = groupOf({ ...c, podLabels: this.podLabels.get(`${c.namespace}/${c.pod}`) }, context);
        if (!group) return undefined;
        return { group, scope: c.namespace === modeNamespace ? this.mode! : c.namespace };
      },
      achievedRps,
      window,
    );
    if (tooFewSamples.length > 0) this.warnTooShort(tooFewSamples, window);
    return usage;
  }

  /** A window too short for two kubelet refreshes gives no CPU figure: say so, and how long would. */
  private warnTooShort(groups: string[], window?: MeasuredWindow): void {
    if (this.tooShortWarned.has(this.mode!)) return;
    this.tooShortWarned.add(this.mode!);
    const seconds = window ? ` (${((window.endMs - window.startMs) / 1000).toFixed(1)} s)` : '';
    const minimum = minimumCpuWindowMs(this.options.intervalMs) / 1000;
    this.options.log.warn(
      `mode ${this.mode}: the measured window${seconds} held fewer than the two kubelet samples CPU needs for ${groups.join(', ')}; ` +
        `their CPU/memory are left out of such repetitions (said once per mode). The kubelet refreshes its samples every 10-30 s: measure for at least ${minimum} s to get CPU per 1000 rps.`,
    );
  }

  /** Nodes that never answered while others did: their containers are missing, which must be said. */
  private warnSilentNodes(): void {
    for (const node of this.nodes) {
      if (this.answeredNodes.has(node) || this.silentNodesWarned.has(node)) continue;
      this.silentNodesWarned.add(node);
      const why = this.failures.find((f) => f.startsWith(`node ${node}:`));
      this.options.log.warn(
        `resource metrics from node ${node} unavailable during mode ${this.mode}${why ? ` (${why})` : ''}; containers on that node are missing from the CPU/memory figures`,
      );
    }
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Nodes and pod labels (waypoints and clients are recognised by label). */
  private async refreshInventory(): Promise<void> {
    try {
      const nodes = await rawRequest(this.access, '/api/v1/nodes', { timeoutMs: 10_000 });
      if (nodes.status === 200)
        this.nodes = (JSON.parse(nodes.body) as { items: { metadata: { name: string } }[] }).items.map((n) => n.metadata.name);
      const namespaces = [
        ...Object.values(this.options.modeNamespaces),
        ...this.options.meshNamespaces,
        ...(this.options.gatewayNamespaces ?? []),
      ];
      for (const namespace of namespaces) {
        const pods = await rawRequest(this.access, `/api/v1/namespaces/${namespace}/pods`, { timeoutMs: 10_000 });
        if (pods.status !== 200) continue;
        for (const pod of (JSON.parse(pods.body) as { items: { metadata: { name: string; labels?: Record<string, string> } }[] }).items) {
          this.podLabels.set(`${namespace}/${pod.metadata.name}`, pod.metadata.labels ?? {});
        }
      }
    } catch (error) {
      this.failures.push((error as Error).message.split('\n')[0]!);
    }
  }

  private async scrapeOnce(): Promise<void> {
    const atMs = Date.now();
    const containers: ContainerIdentity[] & ReturnType<typeof containerSamples> = [];
    let answered = 0;
    await Promise.all(
      this.nodes.map(async (node) => {
        try {
          // One attempt: a scrape waits for every node, and retrying one that is down (~4 s of
          // backoff) would stall the others' samples; the aggregation copes with a missed scrape.
          const response = await rawRequest(this.access, `/api/v1/nodes/${encodeURIComponent(node)}/proxy/metrics/resource`, {
            timeoutMs: Math.max(2000, this.options.intervalMs),
            attempts: 1,
          });
          if (response.status !== 200) {
            this.failures.push(
              `node ${node}: HTTP ${response.status} ${response.body.slice(0, 120).trim()}${response.status === 403 ? ' (grant "get" on nodes/proxy)' : ''}`,
            );
            return;
          }
          containers.push(...containerSamples(parsePrometheusText(response.body)));
          this.answeredNodes.add(node);
          answered++;
        } catch (error) {
          this.failures.push(`node ${node}: ${(error as Error).message.split('\n')[0]}`);
        }
      }),
    );
    if (answered > 0) this.scrapes.push({ atMs, containers });
  }
}
