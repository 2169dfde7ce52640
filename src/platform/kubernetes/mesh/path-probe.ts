// Reads, before and after each repetition, the counters of the proxies a mode's traffic should
// cross (proxy-counters.ts says which and how), through the API server's pod proxy
// (/api/v1/namespaces/NS/pods/NAME:PORT/proxy/PATH): no Prometheus needed, the same access the
// run already has (plus "get" on pods/proxy). The increase is the repetition's path evidence
// (results: repetitions[].path). Every mode also reads the proxies the run's other modes bring
// that could have captured it (ztunnel with an ambient mode in the run; an injected istio-proxy or
// linkerd-proxy on its own echo pods with a sidecar or Linkerd mode): a mode outside them (the
// baseline) must leave them uncounted, or have none.
import type { MeshKind } from '../../../config/schema.ts';
import type { Disruption, PathEvidence, ProxyKind } from '../../../results/types.ts';
import type { Logger } from '../../../util/log.ts';
import { rawRequest, type ClusterAccess, type RawResponse } from '../access.ts';
import { GATEWAY_NAME_LABEL } from '../resources/groups.ts';
import { ECHO_SERVICE } from '../workloads.ts';
import { ISTIO_NAMESPACE, WAYPOINT_NAME } from './istio.ts';
import {
  expectedProxies,
  pathContradictions,
  pathInvalidReasons,
  PROXY_METRICS,
  trafficIncrease,
  trafficOf,
  type TrafficSeries,
} from './proxy-counters.ts';

export interface PathProbeMode {
  kind: MeshKind;
  namespace: string;
  /** The Gateway the mode enters through (kubernetes.ingress). */
  gateway?: { namespace: string; name: string };
}

export interface PathProbeOptions {
  modes: Record<string, PathProbeMode>;
  log: Logger;
}

interface PodRef {
  namespace: string;
  name: string;
}

/** Where a proxy kind's pods are for a mode, and what tells them apart. */
interface ProxyPods {
  proxy: ProxyKind;
  namespace: string;
  selector: string;
  /** The pod must run a container of this name (an injected sidecar; native sidecars are init containers). */
  container?: string;
}

interface PodView {
  metadata: { name: string };
  spec?: { containers?: { name: string }[]; initContainers?: { name: string }[] };
  status?: { phase?: string; podIP?: string };
}

const READ_TIMEOUT_MS = 5000;
/** Lines of problems kept per repetition: a missing permission repeats for every pod. */
const MAX_PROBLEMS = 10;

export class ProxyPathProbe {
  private before = new Map<ProxyKind, Map<string, TrafficSeries[]>>();
  /** Pods listed before the repetition whose counters could not be read: left out after it too. */
  private unread = new Set<string>();
  private problems: string[] = [];
  private echoSelectors = new Map<string, string>();
  private readonly warned = new Set<string>();
  /** The mesh proxies some mode of the run brings, that could capture any mode's pods. */
  private readonly shared: ProxyKind[];

  constructor(
    private readonly access: ClusterAccess,
    private readonly options: PathProbeOptions,
  ) {
    const kinds = new Set(Object.values(options.modes).map((m) => m.kind));
    this.shared = [
      ...(kinds.has('istio-ambient') || kinds.has('istio-waypoint') ? (['ztunnel'] as const) : []),
      ...(kinds.has('istio-sidecar') ? (['sidecar'] as const) : []),
      ...(kinds.has('linkerd') ? (['linkerd-proxy'] as const) : []),
    ];
  }

  /** Reads the counters of the mode's proxies: the baseline the repetition's increase is measured from. */
  async start(mode: string): Promise<void> {
    this.before = new Map();
    this.unread = new Set();
    this.problems = [];
    const target = this.options.modes[mode];
    if (!target) return;
    for (const pods of await this.proxyPods(target)) {
      const read = await this.read(pods, target.namespace);
      for (const pod of read.failed) this.unread.add(`${pods.proxy}/${pod}`);
      this.before.set(pods.proxy, read.series);
    }
  }

  /** The increase since start(), per proxy kind; undefined for a mode it knows nothing to read for. */
  async stop(mode: string): Promise<PathEvidence | undefined> {
    const target = this.options.modes[mode];
    if (!target) return undefined;
    const kinds = await this.proxyPods(target);
    if (kinds.length === 0) return undefined;
    const proxies = [];
    for (const pods of kinds) {
      const read = await this.read(pods, target.namespace);
      for (const pod of [...read.series.keys()]) if (this.unread.has(`${pods.proxy}/${pod}`)) read.series.delete(pod);
      proxies.push(trafficIncrease(pods.proxy, this.before.get(pods.proxy) ?? new Map(), read.series));
    }
    const ingress = target.gateway !== undefined;
    for (const line of pathContradictions(target.kind, ingress, proxies)) {
      if (this.warned.has(`${mode}: ${line}`)) continue;
      this.warned.add(`${mode}: ${line}`);
      this.options.log.warn(`mode ${mode}: ${line} (proxy counters, results: repetitions[].path; said once per mode)`);
    }
    const problems = this.problems.slice(0, MAX_PROBLEMS);
    return { proxies, ...(problems.length > 0 ? { problems } : {}) };
  }

  invalidReasons(mode: string, requests: number, evidence: PathEvidence, disrupted: readonly Disruption[] = []): string[] {
    const target = this.options.modes[mode];
    return target ? pathInvalidReasons(target.kind, target.gateway !== undefined, requests, evidence, disrupted) : [];
  }

  /** The proxy kinds read for a mode, and where their pods are. */
  private async proxyPods(target: PathProbeMode): Promise<ProxyPods[]> {
    if (target.kind === 'existing') return [];
    const kinds = new Set<ProxyKind>([...expectedProxies(target.kind, target.gateway !== undefined), ...this.shared]);
    const out: ProxyPods[] = [];
    for (const proxy of kinds) {
      switch (proxy) {
        case 'ztunnel':
          out.push({ proxy, namespace: ISTIO_NAMESPACE, selector: 'app=ztunnel' });
          break;
        case 'waypoint':
          out.push({ proxy, namespace: target.namespace, selector: `${GATEWAY_NAME_LABEL}=${WAYPOINT_NAME}` });
          break;
        case 'gateway':
          out.push({ proxy, namespace: target.gateway!.namespace, selector: `${GATEWAY_NAME_LABEL}=${target.gateway!.name}` });
          break;
        case 'sidecar':
        case 'linkerd-proxy':
          out.push({
            proxy,
            namespace: target.namespace,
            selector: await this.echoSelector(target.namespace),
            container: proxy === 'sidecar' ? 'istio-proxy' : 'linkerd-proxy',
          });
          break;
      }
    }
    return out;
  }

  /** The echo Service's pods (a mode's own server manifests may label them otherwise than app=echo). */
  private async echoSelector(namespace: string): Promise<string> {
    const cached = this.echoSelectors.get(namespace);
    if (cached) return cached;
    const response = await rawRequest(this.access, `/api/v1/namespaces/${namespace}/services/${ECHO_SERVICE}`, {
      timeoutMs: READ_TIMEOUT_MS,
    }).catch(() => undefined);
    const selector =
      response?.status === 200 ? (JSON.parse(response.body) as { spec?: { selector?: Record<string, string> } }).spec?.selector : undefined;
    const text = Object.entries(selector ?? { app: 'echo' })
      .map(([k, v]) => `${k}=${v}`)
      .join(',');
    this.echoSelectors.set(namespace, text);
    return text;
  }

  private async read(pods: ProxyPods, namespace: string): Promise<{ series: Map<string, TrafficSeries[]>; failed: string[] }> {
    const series = new Map<string, TrafficSeries[]>();
    const failed: string[] = [];
    const listed = await this.listPods(pods);
    const { port, path } = PROXY_METRICS[pods.proxy];
    await Promise.all(
      listed.map(async (pod) => {
        const where = `${pods.proxy} pod ${pod.namespace}/${pod.name}`;
        const answer = await twice(() =>
          rawRequest(this.access, `/api/v1/namespaces/${pod.namespace}/pods/${pod.name}:${port}/proxy${path}`, {
            timeoutMs: READ_TIMEOUT_MS,
            attempts: 2,
          }),
        );
        if ('error' in answer) {
          failed.push(pod.name);
          this.problem(`${where}: ${answer.error.message.split('\n')[0]}`);
          return;
        }
        const response = answer.response;
        if (response.status !== 200) {
          failed.push(pod.name);
          this.problem(
            `${where}: port ${port} ${path} answered HTTP ${response.status}${response.status === 403 ? ' (grant "get" on pods/proxy)' : `: ${response.body.slice(0, 120).trim()}`}`,
          );
          return;
        }
        series.set(pod.name, trafficOf(pods.proxy, response.body, namespace));
      }),
    );
    return { series, failed };
  }

  private async listPods(pods: ProxyPods): Promise<PodRef[]> {
    const answer = await twice(() =>
      rawRequest(this.access, `/api/v1/namespaces/${pods.namespace}/pods?labelSelector=${encodeURIComponent(pods.selector)}`, {
        timeoutMs: READ_TIMEOUT_MS,
      }),
    );
    if ('error' in answer || answer.response.status !== 200) {
      const why = 'error' in answer ? answer.error.message.split('\n')[0] : `answered HTTP ${answer.response.status}`;
      this.problem(`${pods.proxy}: listing pods ${pods.selector} in ${pods.namespace}: ${why}`);
      return [];
    }
    const response = answer.response;
    const items = (JSON.parse(response.body) as { items: PodView[] }).items;
    return items
      .filter((p) => p.status?.phase === 'Running' && p.status.podIP)
      .filter(
        (p) => !pods.container || [...(p.spec?.containers ?? []), ...(p.spec?.initContainers ?? [])].some((c) => c.name === pods.container),
      )
      .map((p) => ({ namespace: pods.namespace, name: p.metadata.name }));
  }

  private problem(line: string): void {
    if (!this.problems.includes(line)) this.problems.push(line);
  }
}

/**
 * A read asked a second time when the first threw (a timeout, a refused connection; rawRequest
 * retries server errors itself): on a loaded cluster (a 2-core runner under load) one slow answer
 * before a repetition would otherwise leave a proxy out of its path evidence for the whole
 * repetition.
 */
async function twice(read: () => Promise<RawResponse>): Promise<{ response: RawResponse } | { error: Error }> {
  try {
    return { response: await read() };
  } catch {
    try {
      return { response: await read() };
    } catch (error) {
      return { error: error as Error };
    }
  }
}
