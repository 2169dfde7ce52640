// The data plane of a mesh, for a local control plane whose pods are emulated (kwok): k6 runs on
// this machine and cannot cross a real gateway, sidecar, waypoint or ztunnel, and the API server's
// pod proxy cannot reach a real proxy's metrics port. This stands in for both sides:
//
// - each mode gets a local HTTP listener that k6 targets (the platform's targetOverride); every
//   request that arrives is counted by each proxy of the mode's path, as that proxy counts it
//   (ztunnel: the TCP connections and the bytes received; Envoy and linkerd-proxy: the requests),
//   then answered;
// - each pod of a proxy (ztunnel's, the gateway's, a waypoint's, an echo pod's injected sidecar)
//   gets a local metrics server that serves those counters in the proxy's own format (the same as
//   test/fixtures/proxy-metrics, written from the upstream sources), and the API server's pod proxy
//   for that pod's address and metrics port is routed to it (cluster.routePod). One pod of a kind
//   per namespace holds the counts; the others serve none, as an idle replica would.
//
// A mode's path is what a real mesh would make of it, decided when the pods are routed: with an
// ingress the gateway first; an istio-waypoint mode's traffic then goes through the waypoint only
// when its Service or namespace carries istio.io/ingress-use-waypoint=true (Istio 1.30
// serviceregistry/ambient/services.go ingressUseWaypointFromLabels); ambient pods through ztunnel,
// unless the test says the mode's pods were never captured.
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { rawRequest, type ClusterAccess } from '../../../src/platform/kubernetes/access.ts';
import type { ProxyKind } from '../../../src/results/types.ts';
import type { LocalCluster } from './cluster.ts';

type Json = any;

export interface StandInMode {
  name: string;
  kind: 'baseline' | 'istio-sidecar' | 'istio-ambient' | 'istio-waypoint';
  namespace: string;
  /** An ambient mode whose pods ambient never captured: its traffic bypasses ztunnel. */
  uncaptured?: boolean;
}

export interface MeshStandIn {
  /** Where k6 sends a mode's traffic. */
  urlFor(mode: string): string;
  /** The proxies each mode's traffic crosses, as decided when the pods were routed. */
  paths: Map<string, ProxyKind[]>;
  /** Routes every proxy pod the cluster now has (call before each repetition; new pods are added). */
  routePods(): Promise<void>;
  stop(): Promise<void>;
}

interface Counters {
  requests: number;
  connections: number;
  bytes: number;
}

const INGRESS_USE_WAYPOINT = 'istio.io/ingress-use-waypoint';
const GATEWAY_WORKLOAD = 'mesh-perf-gateway-istio';

export async function meshStandIn(
  access: ClusterAccess,
  cluster: LocalCluster,
  options: { modes: StandInMode[]; ingressNamespace: string; gateway?: string },
): Promise<MeshStandIn> {
  const servers: Server[] = [];
  const listen = async (server: Server) => {
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  };
  /** Counts per proxy kind and destination namespace. */
  const counts = new Map<string, Counters>();
  const counter = (proxy: ProxyKind, namespace: string) => {
    const key = `${proxy}/${namespace}`;
    let c = counts.get(key);
    if (!c) counts.set(key, (c = { requests: 0, connections: 0, bytes: 0 }));
    return c;
  };
  const paths = new Map<string, ProxyKind[]>();
  const urls = new Map<string, string>();
  for (const mode of options.modes) {
    const open = new Set<Socket>();
    let closedBytes = 0;
    const server = createServer((request, response) => {
      const path = paths.get(mode.name) ?? [];
      for (const proxy of path) if (proxy !== 'ztunnel') counter(proxy, mode.namespace).requests++;
      request.resume();
      request.on('end', () => response.end('echo'));
    });
    server.on('connection', (socket: Socket) => {
      if ((paths.get(mode.name) ?? []).includes('ztunnel')) counter('ztunnel', mode.namespace).connections++;
      open.add(socket);
      socket.on('close', () => {
        open.delete(socket);
        closedBytes += socket.bytesRead;
      });
    });
    // ztunnel counts the bytes as they flow: what the closed connections read, and the open ones so far.
    Object.defineProperty(counter('ztunnel', mode.namespace), 'bytes', {
      get: () => ((paths.get(mode.name) ?? []).includes('ztunnel') ? closedBytes + [...open].reduce((n, s) => n + s.bytesRead, 0) : 0),
    });
    urls.set(mode.name, `http://127.0.0.1:${await listen(server)}/`);
  }

  const identity = (namespace: string, account: string) => `spiffe://cluster.local/ns/${namespace}/sa/${account}`;
  const gatewayPeer = {
    workload: GATEWAY_WORKLOAD,
    namespace: options.ingressNamespace,
    principal: identity(options.ingressNamespace, GATEWAY_WORKLOAD),
  };
  const render = (proxy: ProxyKind, holder: boolean): string => {
    const modes = holder ? options.modes : [];
    if (proxy === 'ztunnel')
      return ztunnelText(modes.map((m) => ({ m, c: counter('ztunnel', m.namespace), from: sourceOf(m, 'ztunnel') })));
    const reporter = proxy === 'sidecar' ? 'destination' : proxy === 'waypoint' ? 'waypoint' : 'source';
    return envoyText(
      reporter,
      modes.map((m) => ({ m, c: counter(proxy, m.namespace), from: proxy === 'gateway' ? gatewayPeer : sourceOf(m, proxy) })),
    );
  };
  /** Who the proxy sees as the client: the waypoint for ztunnel behind it, else the gateway. */
  const sourceOf = (mode: StandInMode, proxy: ProxyKind) =>
    proxy === 'ztunnel' && (paths.get(mode.name) ?? []).includes('waypoint')
      ? { workload: 'waypoint', namespace: mode.namespace, principal: identity(mode.namespace, 'waypoint') }
      : gatewayPeer;

  const routed = new Set<string>();
  const route = async (proxy: ProxyKind, pod: Json, port: number, holder: boolean) => {
    const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
    if (routed.has(key) || !pod.status?.podIP) return;
    routed.add(key);
    const local = await listen(createServer((_request, response) => response.end(render(proxy, holder))));
    cluster.routePod(pod.status.podIP, port, local);
  };
  const pods = async (namespace: string, selector: string): Promise<Json[]> => {
    const response = await rawRequest(access, `/api/v1/namespaces/${namespace}/pods?labelSelector=${encodeURIComponent(selector)}`);
    return response.status === 200
      ? (JSON.parse(response.body) as Json).items
          .filter((p: Json) => p.status?.phase === 'Running' && p.status.podIP)
          .sort((a: Json, b: Json) => a.metadata.name.localeCompare(b.metadata.name))
      : [];
  };
  const holders = new Set<string>();
  const routeAll = async (proxy: ProxyKind, list: Json[], port: number) => {
    for (const pod of list) {
      // The first pod of a kind in its namespace holds the counts.
      const slot = `${proxy}/${pod.metadata.namespace}`;
      const holder = !holders.has(slot) || holders.has(`${slot}/${pod.metadata.name}`);
      if (holder) holders.add(slot).add(`${slot}/${pod.metadata.name}`);
      await route(proxy, pod, port, holder);
    }
  };

  return {
    urlFor: (mode) => urls.get(mode)!,
    paths,
    async routePods() {
      for (const mode of options.modes) {
        const ns = (JSON.parse((await rawRequest(access, `/api/v1/namespaces/${mode.namespace}`)).body) as Json).metadata.labels ?? {};
        const service = JSON.parse((await rawRequest(access, `/api/v1/namespaces/${mode.namespace}/services/echo`)).body) as Json;
        const useWaypoint = (service.metadata?.labels?.[INGRESS_USE_WAYPOINT] ?? ns[INGRESS_USE_WAYPOINT]) === 'true';
        const path: ProxyKind[] = ['gateway'];
        if (mode.kind === 'istio-sidecar') path.push('sidecar');
        if (mode.kind === 'istio-waypoint' && useWaypoint) path.push('waypoint');
        if ((mode.kind === 'istio-ambient' || mode.kind === 'istio-waypoint') && !mode.uncaptured) path.push('ztunnel');
        paths.set(mode.name, path);
        if (mode.kind === 'istio-sidecar') await routeAll('sidecar', await pods(mode.namespace, 'app=echo'), 15090);
        if (mode.kind === 'istio-waypoint')
          await routeAll('waypoint', await pods(mode.namespace, 'gateway.networking.k8s.io/gateway-name=waypoint'), 15090);
      }
      await routeAll('ztunnel', await pods('istio-system', 'app=ztunnel'), 15020);
      const gateway = options.gateway ?? 'mesh-perf-gateway';
      await routeAll('gateway', await pods(options.ingressNamespace, `gateway.networking.k8s.io/gateway-name=${gateway}`), 15090);
    },
    async stop() {
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.closeAllConnections();
              s.close(() => resolve());
            }),
        ),
      );
    },
  };
}

interface Peer {
  workload: string;
  namespace: string;
  principal: string;
}

/** ztunnel's /metrics: prometheus-client's text (test/fixtures/proxy-metrics/ztunnel.txt). */
function ztunnelText(rows: { m: StandInMode; c: Counters; from: Peer }[]): string {
  const labels = ({ m, from }: { m: StandInMode; from: Peer }) =>
    `{reporter="destination",source_workload="${from.workload}",source_canonical_service="${from.workload}",source_canonical_revision="latest",source_workload_namespace="${from.namespace}",source_principal="${from.principal}",source_app="${from.workload}",source_version="latest",source_cluster="Kubernetes",destination_service="echo.${m.namespace}.svc.cluster.local",destination_service_namespace="${m.namespace}",destination_service_name="echo",destination_workload="echo",destination_canonical_service="echo",destination_canonical_revision="latest",destination_workload_namespace="${m.namespace}",destination_principal="spiffe://cluster.local/ns/${m.namespace}/sa/default",destination_app="echo",destination_version="latest",destination_cluster="Kubernetes",request_protocol="tcp",response_flags="-",connection_security_policy="mutual_tls",source_region="unknown",source_zone="unknown",destination_region="unknown",destination_zone="unknown"}`;
  const live = rows.filter((r) => r.c.connections > 0);
  return [
    '# HELP istio_build Istio component build info.',
    '# TYPE istio_build gauge',
    'istio_build{component="ztunnel",tag="1.30.3"} 1',
    '# HELP istio_tcp_connections_opened The total number of TCP connections opened.',
    '# TYPE istio_tcp_connections_opened counter',
    ...live.map((r) => `istio_tcp_connections_opened_total${labels(r)} ${r.c.connections}`),
    '# HELP istio_tcp_received_bytes The size of total bytes received during request in case of a TCP connection.',
    '# TYPE istio_tcp_received_bytes counter',
    ...live.map((r) => `istio_tcp_received_bytes_total${labels(r)} ${r.c.bytes}`),
    '# EOF',
    '',
  ].join('\n');
}

/** Envoy's /stats/prometheus (test/fixtures/proxy-metrics/envoy-*.txt). */
function envoyText(reporter: string, rows: { m: StandInMode; c: Counters; from: Peer }[]): string {
  const mtls = reporter === 'source' ? 'unknown' : 'mutual_tls';
  const labels = ({ m, from }: { m: StandInMode; from: Peer }) =>
    `{reporter="${reporter}",source_workload="${from.workload}",source_canonical_service="${from.workload}",source_canonical_revision="latest",source_workload_namespace="${from.namespace}",source_principal="${from.principal}",source_app="${from.workload}",source_version="latest",source_cluster="Kubernetes",destination_workload="echo",destination_workload_namespace="${m.namespace}",destination_principal="spiffe://cluster.local/ns/${m.namespace}/sa/default",destination_app="echo",destination_version="latest",destination_service="echo.${m.namespace}.svc.cluster.local",destination_canonical_service="echo",destination_canonical_revision="latest",destination_service_name="echo",destination_service_namespace="${m.namespace}",destination_cluster="Kubernetes",request_protocol="http",response_code="200",grpc_response_status="",response_flags="-",connection_security_policy="${mtls}"}`;
  return [
    '# TYPE istio_build gauge',
    'istio_build{component="proxy",tag="1.30.3"} 1',
    '# TYPE istio_requests_total counter',
    ...rows.filter((r) => r.c.requests > 0).map((r) => `istio_requests_total${labels(r)} ${r.c.requests}`),
    '',
  ].join('\n');
}
