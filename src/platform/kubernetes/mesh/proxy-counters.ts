// What a mesh's proxies counted for the traffic into one namespace, read from their own metrics:
// evidence that a mode's load crossed its proxies (results: repetitions[].path). One reader per
// kind of proxy, each from the Prometheus text that proxy serves, named and labelled as its
// upstream source writes them:
//
// - ztunnel (port 15020, /metrics; istio/ztunnel src/metrics/server.rs): istio_tcp_connections_opened_total
//   and istio_tcp_received_bytes_total (src/proxy/metrics.rs, registered under the "istio" prefix by
//   src/metrics.rs), labels reporter, destination_workload_namespace, source_principal,
//   connection_security_policy ("mutual_tls" or "unknown"). The destination's ztunnel reports
//   reporter="destination".
// - Envoy (sidecars, waypoints, ingress gateways; port 15090, /stats/prometheus):
//   istio_requests_total (istio/proxy source/extensions/filters/http/istio_stats/istio_stats.cc),
//   reporter "destination" (a sidecar's inbound), "waypoint" (a waypoint) or "source" (a client
//   sidecar, an ingress gateway), connection_security_policy "mutual_tls"/"none" on the server side
//   and "unknown" on a client's, source_principal, destination_workload_namespace and
//   destination_service_namespace.
// - linkerd-proxy (port 4191, /metrics): request_total (linkerd/http/metrics/src/requests/report.rs)
//   with direction="inbound", tls="true" and client_id for mutual TLS, tls="no_identity" for
//   plaintext (linkerd/app/core/src/transport/labels.rs TlsAccept).
//
// The counters are read before and after a repetition on every pod of the proxy; the increase,
// summed over pods, is the repetition's. Pure; the Kubernetes platform reads the pods
// (path-probe.ts).
import type { MeshKind } from '../../../config/schema.ts';
import type { Disruption, PathEvidence, ProxyKind, ProxyTraffic } from '../../../results/types.ts';
import { parsePrometheusText, type PromSample } from '../resources/prometheus.ts';

/** One counter series of a proxy for traffic into the namespace, as read at one instant. */
export interface TrafficSeries {
  /** Identifies the series between two reads (its labels). */
  key: string;
  count: number;
  /** Bytes received from the client on these connections (ztunnel). */
  bytes?: number;
  /** Seen with mutual TLS; false: plaintext; undefined: the proxy cannot tell (a client's side). */
  mtls?: boolean;
  /** The client's identity behind the mutual TLS. */
  peer?: string;
}

/** How a proxy kind is read: where, and which counter. */
export const PROXY_METRICS: Record<ProxyKind, { port: number; path: string; unit: ProxyTraffic['unit'] }> = {
  ztunnel: { port: 15020, path: '/metrics', unit: 'connections' },
  sidecar: { port: 15090, path: '/stats/prometheus', unit: 'requests' },
  waypoint: { port: 15090, path: '/stats/prometheus', unit: 'requests' },
  gateway: { port: 15090, path: '/stats/prometheus', unit: 'requests' },
  'linkerd-proxy': { port: 4191, path: '/metrics', unit: 'requests' },
};

const UNKNOWN = 'unknown';

function labelKey(labels: Record<string, string>): string {
  return Object.keys(labels)
    .sort()
    .map((k) => `${k}=${JSON.stringify(labels[k])}`)
    .join(',');
}

function known(value: string | undefined): string | undefined {
  return value && value !== UNKNOWN ? value : undefined;
}

function istioMtls(policy: string | undefined): boolean | undefined {
  if (policy === 'mutual_tls') return true;
  if (policy === 'none') return false;
  return undefined;
}

/** ztunnel's connections into `namespace`, as the destination's ztunnel counted them. */
export function ztunnelTraffic(text: string, namespace: string): TrafficSeries[] {
  const samples = parsePrometheusText(text);
  const into = (s: PromSample) => s.labels.reporter === 'destination' && s.labels.destination_workload_namespace === namespace;
  const bytes = new Map<string, number>();
  for (const s of samples) if (s.name === 'istio_tcp_received_bytes_total' && into(s)) bytes.set(labelKey(s.labels), s.value);
  return samples
    .filter((s) => s.name === 'istio_tcp_connections_opened_total' && into(s))
    .map((s) => {
      const key = labelKey(s.labels);
      const mtls = s.labels.connection_security_policy === 'mutual_tls';
      const peer = mtls ? known(s.labels.source_principal) : undefined;
      return { key, count: s.value, bytes: bytes.get(key) ?? 0, mtls, ...(peer ? { peer } : {}) };
    });
}

/** Envoy's HTTP requests into `namespace` as reported by `reporter` (destination: a sidecar; waypoint; source: a gateway). */
export function envoyTraffic(text: string, namespace: string, reporter: 'destination' | 'waypoint' | 'source'): TrafficSeries[] {
  return parsePrometheusText(text)
    .filter(
      (s) =>
        s.name === 'istio_requests_total' &&
        s.labels.reporter === reporter &&
        (s.labels.destination_workload_namespace === namespace || s.labels.destination_service_namespace === namespace),
    )
    .map((s) => {
      const mtls = istioMtls(s.labels.connection_security_policy);
      const peer = mtls ? known(s.labels.source_principal) : undefined;
      return { key: labelKey(s.labels), count: s.value, ...(mtls === undefined ? {} : { mtls }), ...(peer ? { peer } : {}) };
    });
}

/**
 * linkerd-proxy's inbound HTTP requests to its workload (the pod's own proxy: every inbound request
 * is into its namespace). Not counted, as a real proxy labels them (test/fixtures/linkerd-proxy/):
 * requests to the proxy's own admin server (target_port 4191: the kubelet's probes of the proxy,
 * and every read of this very /metrics, mesh-perf's included) and the kubelet's probes of the
 * workload (route_kind "default", route_name "probe": the route Linkerd's policy gives a pod's
 * probe paths). Both are plaintext and never the load: counted, every Linkerd repetition showed
 * plaintext beside its mTLS, and a proxy the load never crossed still counted requests.
 */
export function linkerdProxyTraffic(text: string): TrafficSeries[] {
  const admin = String(PROXY_METRICS['linkerd-proxy'].port);
  const probe = (s: PromSample) => s.labels.route_kind === 'default' && s.labels.route_name === 'probe';
  return parsePrometheusText(text)
    .filter((s) => s.name === 'request_total' && s.labels.direction === 'inbound' && s.labels.target_port !== admin && !probe(s))
    .map((s) => {
      const mtls = s.labels.tls === 'true';
      const peer = mtls ? s.labels.client_id || undefined : undefined;
      return { key: labelKey(s.labels), count: s.value, mtls, ...(peer ? { peer } : {}) };
    });
}

/** The reader of a proxy kind, for the traffic into `namespace`. */
export function trafficOf(proxy: ProxyKind, text: string, namespace: string): TrafficSeries[] {
  switch (proxy) {
    case 'ztunnel':
      return ztunnelTraffic(text, namespace);
    case 'sidecar':
      return envoyTraffic(text, namespace, 'destination');
    case 'waypoint':
      return envoyTraffic(text, namespace, 'waypoint');
    case 'gateway':
      return envoyTraffic(text, namespace, 'source');
    case 'linkerd-proxy':
      return linkerdProxyTraffic(text);
  }
}

const MAX_PEERS = 5;

/**
 * The increase between two reads of a proxy kind's pods (pod → its series). A series or pod not
 * read before counts from zero (a new pod's counters start there); a counter lower than before
 * was reset (its pod restarted) and counts from zero too.
 */
export function trafficIncrease(
  proxy: ProxyKind,
  before: ReadonlyMap<string, readonly TrafficSeries[]>,
  after: ReadonlyMap<string, readonly TrafficSeries[]>,
): ProxyTraffic {
  let count = 0;
  let mtls = 0;
  let plaintext = 0;
  let bytes = 0;
  let hasBytes = false;
  const peers = new Set<string>();
  for (const [pod, series] of after) {
    const earlier = new Map((before.get(pod) ?? []).map((s) => [s.key, s]));
    for (const s of series) {
      const prior = earlier.get(s.key);
      const rose = !prior || s.count < prior.count ? s.count : s.count - prior.count;
      if (s.bytes !== undefined) {
        hasBytes = true;
        const priorBytes = prior?.bytes ?? 0;
        bytes += !prior || s.bytes < priorBytes ? s.bytes : s.bytes - priorBytes;
      }
      if (rose <= 0) continue;
      count += rose;
      if (s.mtls === true) mtls += rose;
      if (s.mtls === false) plaintext += rose;
      if (s.peer) peers.add(s.peer);
    }
  }
  return {
    proxy,
    pods: after.size,
    unit: PROXY_METRICS[proxy].unit,
    count,
    mtls,
    plaintext,
    ...(hasBytes ? { bytesReceived: bytes } : {}),
    peers: [...peers].sort().slice(0, MAX_PEERS),
  };
}

/**
 * The proxies a mode's traffic crosses, in order from the client: the ingress gateway (with
 * kubernetes.ingress), then the mesh's. A mode without a mesh crosses none of the mesh's; mesh
 * "existing" is the user's, unknown here.
 */
export function expectedProxies(kind: MeshKind, ingress: boolean): ProxyKind[] {
  const gateway: ProxyKind[] = ingress ? ['gateway'] : [];
  switch (kind) {
    case 'istio-sidecar':
      return [...gateway, 'sidecar'];
    case 'istio-ambient':
      return [...gateway, 'ztunnel'];
    case 'istio-waypoint':
      return [...gateway, 'waypoint', 'ztunnel'];
    case 'linkerd':
      return [...gateway, 'linkerd-proxy'];
    case 'baseline':
      return gateway;
    case 'existing':
      return [];
  }
}

/** The evidence's contradictions with the mode, for the run's log: a proxy of its path that counted nothing, a mesh proxy outside it that counted its traffic. */
export function pathContradictions(kind: MeshKind, ingress: boolean, proxies: readonly ProxyTraffic[]): string[] {
  const expected = new Set(expectedProxies(kind, ingress));
  const out: string[] = [];
  for (const p of proxies) {
    if (p.pods === 0) continue;
    if (expected.has(p.proxy) && p.count === 0) out.push(`${p.proxy} counted none of its traffic`);
    if (!expected.has(p.proxy) && p.proxy !== 'gateway' && p.count > 0)
      out.push(`${p.proxy} counted ${p.count} ${p.unit} of its traffic, which a ${kind} mode does not cross`);
  }
  return out;
}

/** Fewer requests than this in a repetition prove nothing by a proxy's zero (a run that failed early). */
const MIN_JUDGED_REQUESTS = 50;
/** A mesh proxy outside the mode's path that counted this share of its requests captured the mode. */
const CAPTURED_SHARE = 0.1;

/**
 * Why a repetition measured another path than its mode's, so its figures are invalid and never
 * compared (a mode's cost judged from traffic that skipped the mesh, or a baseline the mesh
 * captured): a proxy of its path was read and counted none of its requests, or a mesh proxy
 * outside its path counted a tenth of them (ztunnel: any connection). Only the cases that leave no
 * doubt: when a pod could not be read (evidence.problems) its share may be the missing one, so no
 * zero is judged; a count a few per cent short is the log's to mention, not a reason to drop figures.
 */
export function pathInvalidReasons(
  kind: MeshKind,
  ingress: boolean,
  requests: number,
  evidence: PathEvidence,
  disrupted: readonly Disruption[] = [],
): string[] {
  if (requests < MIN_JUDGED_REQUESTS) return [];
  const expected = new Set(expectedProxies(kind, ingress));
  const unread = (evidence.problems ?? []).length > 0;
  // A proxy whose pod was replaced or restarted mid-repetition lost its counters with it: its zero
  // says nothing of the path (the disruption is the repetition's reason).
  const restarted = new Set<string>(
    disrupted.flatMap((d) => [d.component, ...(d.component === 'echo server' ? ['linkerd-proxy', 'sidecar'] : [])]),
  );
  const out: string[] = [];
  for (const p of evidence.proxies) {
    if (p.pods === 0) continue;
    if (restarted.has(p.proxy)) continue;
    if (expected.has(p.proxy)) {
      if (!unread && p.count === 0 && (p.bytesReceived ?? 0) === 0)
        out.push(
          `the traffic did not cross its ${p.proxy}: ${p.pods} ${p.proxy} pod${p.pods === 1 ? '' : 's'} counted none of its ${requests} requests (the proxies' own counters, repetitions[].path)`,
        );
      continue;
    }
    if (p.proxy === 'gateway') continue;
    const captured = p.unit === 'connections' ? p.count > 0 : p.count >= CAPTURED_SHARE * requests;
    if (captured)
      out.push(
        `the mesh captured the traffic of a ${kind} mode: ${p.proxy} counted ${p.count} ${p.unit} of it (the proxies' own counters, repetitions[].path)`,
      );
  }
  return out;
}
