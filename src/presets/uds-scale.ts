// Source benchmark 004: UDS Core's sidecar baseline on k3s. Vegeta at 20 and 50 rps for 5 minutes against
// 1, 10, 50 and 90 nginx pods behind the tenant gateway; per scenario vegeta's text report and
// CPU/memory min/max/avg per namespace. The source benchmark scaled one deployment between runs, so each
// pod count is its own preset: `uds-scale` (1 pod), `uds-scale-10`, `uds-scale-50`, `uds-scale-90`.
import type { Preset } from './types.ts';
import { meshMode } from './modes.ts';

export const UDS_POD_COUNTS = [1, 10, 50, 90] as const;

const udsLoad = [20, 50].map((rate) => ({ name: `${rate}rps`, rate, duration: '5m', repetitions: 1 }));

function udsScale(pods: (typeof UDS_POD_COUNTS)[number]): Preset {
  const name = pods === 1 ? 'uds-scale' : `uds-scale-${pods}`;
  const where = pods === 1 ? 'a single pod' : `${pods} pods`;
  return {
    name,
    ...(pods === 1 ? {} : { variantOf: 'uds-scale' }),
    source: '004',
    summary: `UDS sidecar baseline: 20 and 50 rps × 5 min to ${where}; vegeta-style blocks and namespace CPU/memory`,
    formats: ['uds-report'],
    config: {
      suite: name,
      platform: 'kind',
      // The source benchmark measures Istio sidecars only; there is no no-mesh column to compare against.
      modes: [meshMode('istio-sidecar')],
      load: udsLoad,
      kubernetes: { replicas: pods },
    },
  };
}

export const udsScalePresets: Preset[] = UDS_POD_COUNTS.map(udsScale);
