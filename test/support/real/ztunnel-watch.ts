// Watches ztunnel while the product runs: every few seconds its own metrics (:15020/metrics, through
// the API server's pod proxy) and its log, keeping the last of each, since the product's teardown
// removes ztunnel with the run. What only a real data plane shows is read from these.
import { componentPath } from './components.ts';
import { paths } from './layout.ts';
import type { NodeContext } from './node.ts';

export interface ZtunnelView {
  pod?: string;
  metrics?: string;
  logs?: string;
  /** Scrapes that answered. */
  scrapes: number;
}

export function watchZtunnel(node: NodeContext, intervalMs = 3000): { view: ZtunnelView; stop: () => Promise<void> } {
  const view: ZtunnelView = { scrapes: 0 };
  let stopped = false;
  const kubectl = async (args: string[]) => {
    const out = await node.exec(componentPath('kubectl'), ['--kubeconfig', paths.kubeconfig(), ...args], {
      namespaces: ['net'],
      timeoutMs: 15_000,
    });
    return out.code === 0 ? out.stdout : undefined;
  };
  const once = async () => {
    const pod = (
      await kubectl(['-n', 'istio-system', 'get', 'pods', '-l', 'app=ztunnel', '-o', 'jsonpath={.items[0].metadata.name}'])
    )?.trim();
    if (!pod) return;
    const metrics = await kubectl(['get', '--raw', `/api/v1/namespaces/istio-system/pods/${pod}:15020/proxy/metrics`]);
    if (!metrics) return;
    const logs = await kubectl(['-n', 'istio-system', 'logs', pod, '--tail=2000']);
    Object.assign(view, { pod, metrics, ...(logs ? { logs } : {}) });
    view.scrapes++;
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
