// Source benchmark 001: Istio vs Linkerd2 load tests on Minikube. Fortio at 100 qps for 10 s, first HTTP
// then gRPC, 10 runs each against baseline, Linkerd-meshed and Istio-meshed echo servers (two
// replicas each); p50..p99.9 per run and the echo servers' CPU/memory over the runs.
import type { Preset } from './types.ts';
import { meshMode } from './modes.ts';

const fortioLoad = { rate: 100, duration: '10s', repetitions: 10 } as const;

export const istioLinkerdFortio: Preset = {
  name: 'istio-linkerd-fortio',
  source: '001',
  summary: 'Istio vs Linkerd (Minikube report): 100 rps × 10 s, HTTP then gRPC, 10 runs, baseline / linkerd / istio-sidecar',
  formats: ['fortio-runs'],
  config: {
    suite: 'istio-linkerd-fortio',
    platform: 'kind',
    modes: [meshMode('baseline'), meshMode('linkerd'), meshMode('istio-sidecar')],
    load: [
      { ...fortioLoad, name: 'http', protocol: 'http' },
      { ...fortioLoad, name: 'grpc', protocol: 'grpc' },
    ],
    // The report load-tests "2 baseline echo servers" (and 2 per mesh).
    kubernetes: { replicas: 2 },
  },
};
