// Source benchmark 004: UDS Core's sidecar baseline on k3s. Vegeta at 20 and 50 rps for 5 minutes against
// 1, 10, 50 and 90 nginx pods behind the tenant gateway; per scenario vegeta's text report and
// CPU/memory min/max/avg per namespace. One preset runs the whole matrix in one job: eight load
// profiles, each with its pod count (load[].replicas), in the source benchmark's order; the run scales the
// deployment between them and waits until the new pods take traffic.
import type { Preset } from './types.ts';
import { meshMode } from './modes.ts';

export const UDS_POD_COUNTS = [1, 10, 50, 90] as const;
export const UDS_RATES = [20, 50] as const;

const udsLoad = UDS_POD_COUNTS.flatMap((pods) =>
  UDS_RATES.map((rate) => ({
    name: `${pods}pod${pods === 1 ? '' : 's'}-${rate}rps`,
    rate,
    duration: '5m',
    repetitions: 1,
    replicas: pods,
  })),
);

export const udsScale: Preset = {
  name: 'uds-scale',
  source: '004',
  summary:
    'UDS sidecar baseline: 20 and 50 rps × 5 min to 1, 10, 50 and 90 pods through the ingress gateway; vegeta-style blocks and namespace CPU/memory',
  formats: ['uds-report'],
  config: {
    suite: 'uds-scale',
    platform: 'kind',
    // The source benchmark measures Istio sidecars only; there is no no-mesh column to compare against.
    // Locally: the gateway's hop plus the server's sidecar (vegeta ran outside the mesh).
    modes: [{ ...meshMode('istio-sidecar'), local: { hops: 2 } }],
    load: udsLoad,
    // UDS's tenant gateway is an Istio ingress gateway terminating TLS.
    kubernetes: { replicas: 1, ingress: { replicas: 1, tls: true } },
  },
};
