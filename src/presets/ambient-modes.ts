// Source benchmark 003: the ambient mesh performance script. Client and server on different nodes, mTLS on,
// one run per mode: no mesh, Istio sidecars, Linkerd, ambient (ztunnel only), ambient with
// waypoints; p50/p90/p99/max per mode as CSV and as a plain-text table. Its README shows a
// 200 rps × 10 s run; the script's default is 400 rps × 60 s (the `-400` variant).
import type { Preset } from './types.ts';
import { meshMode } from './modes.ts';

// Column order of the script's CSV: No Mesh, Istio sidecars, Linkerd, ambient, ambient + PEPs
// (PEPs were renamed waypoints).
const modes = [meshMode('baseline'), meshMode('istio-sidecar'), meshMode('linkerd'), meshMode('istio-ambient'), meshMode('istio-waypoint')];

const ambient = (rate: number, duration: string) => ({ name: `${rate}rps`, rate, duration, repetitions: 1 });

export const ambientModes: Preset = {
  name: 'ambient-modes',
  source: '003',
  summary: 'Ambient script: baseline, istio-sidecar, linkerd, istio-ambient, istio-waypoint at 200 rps × 10 s; CSV p50/p90/p99/Max',
  formats: ['ambient-csv', 'ambient-table'],
  config: { suite: 'ambient-modes', platform: 'kind', modes, load: ambient(200, '10s') },
};

export const ambientModes400: Preset = {
  name: 'ambient-modes-400',
  variantOf: 'ambient-modes',
  source: '003',
  summary: "Ambient script's default parameters: the same five modes at 400 rps × 60 s",
  formats: ['ambient-csv', 'ambient-table'],
  config: { suite: 'ambient-modes-400', platform: 'kind', modes, load: ambient(400, '60s') },
};

/**
 * The script's 10 s per mode is too short for a CPU figure (two kubelet refreshes, of up to 30 s
 * each, fit in 60 s): this variant measures 60 s, six times the time, and reports CPU per 1000 rps of every proxy
 * (sidecars, ztunnel, waypoint, linkerd-proxy). `plan` of ambient-modes points here.
 */
export const ambientModesCpu: Preset = {
  name: 'ambient-modes-cpu',
  variantOf: 'ambient-modes',
  source: '003',
  summary: 'The same five modes at 200 rps × 60 s: 6× the measured time, and CPU per 1000 rps of every proxy (10 s gets none)',
  formats: ['ambient-csv', 'ambient-table'],
  config: { suite: 'ambient-modes-cpu', platform: 'kind', modes, load: ambient(200, '60s') },
};

export const ambientModesTcp: Preset = {
  name: 'ambient-modes-tcp',
  variantOf: 'ambient-modes',
  source: '003',
  summary: "The script's TCP variant: the same five modes with the echo Service port declared as TCP (L4 handling)",
  formats: ['ambient-csv', 'ambient-table'],
  config: { suite: 'ambient-modes-tcp', platform: 'kind', modes, load: ambient(200, '10s'), kubernetes: { serviceProtocol: 'tcp' } },
};
