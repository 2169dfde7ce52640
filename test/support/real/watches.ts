// The proxies the real-node test watches while the product runs (proxy-watch.ts): ztunnel (its
// counters and access log) and every linkerd-proxy of a Linkerd mode's namespace, with the series
// whose rise is placed in the modes' repetitions: the echo proxy's inbound requests under mTLS and
// the client proxy's outbound requests under mTLS.
import type { PromSample } from '../../../src/platform/kubernetes/resources/prometheus.ts';
import type { NodeContext } from './node.ts';
import { type ProxyTarget, type ProxyView, watchProxies } from './proxy-watch.ts';

const sum = (samples: PromSample[], pick: (s: PromSample) => boolean) => samples.filter(pick).reduce((n, s) => n + s.value, 0);

/** linkerd-proxy's request_total of one direction to the echo port under mutual TLS (inbound: target_port; outbound: the Service's). */
const linkerdRequests = (direction: 'inbound' | 'outbound') => (samples: PromSample[]) =>
  sum(
    samples,
    (s) => s.name === 'request_total' && s.labels.direction === direction && s.labels.tls === 'true' && s.labels.target_port === '8080',
  );

export const ZTUNNEL: ProxyTarget = {
  name: 'ztunnel',
  namespace: 'istio-system',
  selector: 'app=ztunnel',
  port: 15020,
  logContainer: 'istio-proxy',
};

export const linkerdTarget = (namespace: string): ProxyTarget => ({
  name: 'linkerd-proxy',
  namespace,
  selector: 'linkerd.io/control-plane-ns=linkerd',
  port: 4191,
  series: {
    inboundMtls: linkerdRequests('inbound'),
    outboundMtls: linkerdRequests('outbound'),
    tcpOpenInbound: (samples) =>
      sum(samples, (s) => s.name === 'tcp_open_total' && s.labels.direction === 'inbound' && s.labels.tls === 'true'),
  },
});

export interface Watches {
  ztunnel: ProxyView;
  linkerd: ProxyView;
  stop: () => Promise<void>;
}

export function watchMeshes(node: NodeContext, linkerdNamespace: string): Watches {
  const ztunnel = watchProxies(node, ZTUNNEL);
  const linkerd = watchProxies(node, linkerdTarget(linkerdNamespace));
  return {
    ztunnel: ztunnel.view,
    linkerd: linkerd.view,
    stop: async () => {
      await Promise.all([ztunnel.stop(), linkerd.stop()]);
    },
  };
}
