// Source benchmark 002: Istio's "performance and scalability" synthetic end-to-end benchmark. Fortio between
// two services that are both in the mesh (two sidecars on the path), mutual TLS, 1 KB payloads;
// published as added latency per percentile and vCPU per 1000 rps; the graphed scenario ran
// at 400 qps. The `-400` variant is that scenario.
import type { Preset } from './types.ts';
import { meshMode } from './modes.ts';

// Istio's runner measures at least 92 s and drops the first 62 s from resource figures, so a
// measured window of minutes with a long warm-up is closer to it than k6's usual 30 s.
const synthetic = (rate: number) => ({
  name: `${rate}rps`,
  rate,
  duration: '2m',
  warmup: '30s',
  repetitions: 3,
  method: 'POST',
  payloadBytes: 1024,
});

const base = {
  platform: 'kind',
  modes: [meshMode('baseline'), meshMode('istio-sidecar')],
} as const;

export const istioSynthetic: Preset = {
  name: 'istio-synthetic',
  source: '002',
  summary: "Istio's synthetic benchmark: 1000 rps, 1 KB, mTLS, client and server meshed; added latency per percentile, vCPU per 1000 rps",
  formats: ['istio-sizing'],
  config: { ...base, suite: 'istio-synthetic', load: synthetic(1000) },
};

export const istioSynthetic400: Preset = {
  name: 'istio-synthetic-400',
  variantOf: 'istio-synthetic',
  source: '002',
  summary: "Istio's synthetic benchmark at 400 rps (the scenario the page graphs across releases)",
  formats: ['istio-sizing'],
  config: { ...base, suite: 'istio-synthetic-400', load: synthetic(400) },
};
