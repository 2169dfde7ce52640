// Watches meshes' proxies while the product runs: every few seconds each proxy's own /metrics
// (through the API server's pod proxy) and, when asked, its log, since the product's teardown
// removes the proxies with the run. Kept per pod: the last text (the fixtures and the mTLS checks
// read it) and a timestamped series of the counters the test names, so a counter's rise can be
// placed in a mode's repetitions and not in another's (what only a real data plane shows).
import { type PromSample, parsePrometheusText } from '../../../src/platform/kubernetes/resources/prometheus.ts';
import { componentPath } from './components.ts';
import { paths } from './layout.ts';
import type { NodeContext } from './node.ts';

export interface ProxyTarget {
  /** A name for the test's messages: "ztunnel", "linkerd-proxy". */
  name: string;
  /** Pods to scrape: every namespace (undefined) or one; a label selector. */
  namespace?: string;
  selector: string;
  /** The proxy's admin port and path: ztunnel 15020/metrics, linkerd-proxy 4191/metrics. */
  port: number;
  path?: string;
  /** The container whose log is kept (when set). */
  logContainer?: string;
  /** The counters followed over time: name → the sum of the samples it picks. */
  series?: Record<string, (samples: PromSample[]) => number>;
}

export interface PodView {
  namespace: string;
  pod: string;
  metrics: string;
  logs?: string;
  /** Each scrape's time (ms since the epoch) and the target's series at it. */
  points: { at: number; values: Record<string, number> }[];
}

export interface ProxyView {
  /** namespace/pod → what was seen of it. */
  pods: Map<string, PodView>;
  /** Scrapes that answered. */
  scrapes: number;
}

export function watchProxies(node: NodeContext, target: ProxyTarget, intervalMs = 3000): { view: ProxyView; stop: () => Promise<void> } {
  const view: ProxyView = { pods: new Map(), scrapes: 0 };
  let stopped = false;
  const kubectl = async (args: string[]) => {
    const out = await node.exec(componentPath('kubectl'), ['--kubeconfig', paths.kubeconfig(), ...args], {
      namespaces: ['net'],
      timeoutMs: 15_000,
    });
    return out.code === 0 ? out.stdout : undefined;
  };
  const scrape = async (namespace: string, pod: string) => {
    const at = Date.now();
    const metrics = await kubectl([
      'get',
      '--raw',
      `/api/v1/namespaces/${namespace}/pods/${pod}:${target.port}/proxy${target.path ?? '/metrics'}`,
    ]);
    if (!metrics) return;
    const logs = target.logContainer ? await kubectl(['-n', namespace, 'logs', pod, '-c', target.logContainer, '--tail=2000']) : undefined;
    const key = `${namespace}/${pod}`;
    const seen = view.pods.get(key) ?? { namespace, pod, metrics, points: [] };
    const samples = target.series ? parsePrometheusText(metrics) : [];
    const values = Object.fromEntries(Object.entries(target.series ?? {}).map(([name, pick]) => [name, pick(samples)]));
    view.pods.set(key, { ...seen, metrics, ...(logs ? { logs } : {}), points: [...seen.points, { at, values }] });
    view.scrapes++;
  };
  const once = async () => {
    const scope = target.namespace ? ['-n', target.namespace] : ['-A'];
    const listed = await kubectl([
      'get',
      'pods',
      ...scope,
      '-l',
      target.selector,
      '-o',
      'jsonpath={range .items[?(@.status.phase=="Running")]}{.metadata.namespace}/{.metadata.name}{"\\n"}{end}',
    ]);
    const pods = (listed ?? '').split('\n').filter(Boolean);
    await Promise.all(pods.map((p) => scrape(p.split('/')[0]!, p.split('/')[1]!).catch(() => undefined)));
  };
  const loop = (async () => {
    while (!stopped) {
      await once().catch(() => undefined);
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  })();
  return {
    view,
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}

/**
 * How much a series rose inside a window: between the first and the last scrape that fall in it
 * (none, or one: undefined), with the seconds between them, so a rate can be compared with the load's.
 */
export function riseWithin(pod: PodView, series: string, from: number, to: number): { rise: number; seconds: number } | undefined {
  const inside = pod.points.filter((p) => p.at >= from && p.at <= to && p.values[series] !== undefined);
  if (inside.length < 2) return undefined;
  const first = inside[0]!;
  const last = inside[inside.length - 1]!;
  return { rise: last.values[series]! - first.values[series]!, seconds: (last.at - first.at) / 1000 };
}
