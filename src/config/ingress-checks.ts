// Cross-field checks of kubernetes.ingress: which modes and profiles can go through Istio's
// ingress gateway. Pure.
import type { ParsedConfig } from './schema.ts';

interface Problem {
  path: string;
  message: string;
}

export function ingressProblems(config: ParsedConfig): Problem[] {
  if (!config.kubernetes.ingress) return [];
  const problems: Problem[] = [];
  config.modes.forEach((mode, i) => {
    const mesh = mode.mesh ?? mode.name;
    // Istio's gateway in front of Linkerd-meshed pods would reach them as an unmeshed client:
    // no Linkerd identity or mTLS on that hop, so the mode would not measure Linkerd as deployed.
    // Linkerd has no ingress of its own; a meshed third-party gateway is a setup of your own.
    if (mesh === 'linkerd') {
      problems.push({
        path: 'kubernetes.ingress',
        message: `cannot be used with modes[${i}] "${mode.name}" (mesh linkerd): the ingress is Istio's gateway, which would reach Linkerd's pods unmeshed. Remove kubernetes.ingress, or run Linkerd modes in a config of their own`,
      });
    }
  });
  const profiles = Array.isArray(config.load) ? config.load : [config.load];
  profiles.forEach((profile, i) => {
    if (profile.protocol !== 'grpc') return;
    const at = Array.isArray(config.load) ? `load[${i}]` : 'load';
    problems.push({
      path: `${at}.protocol`,
      message:
        'grpc cannot go through kubernetes.ingress (the gateway gets one HTTPRoute per mode); use protocol http or remove kubernetes.ingress',
    });
  });
  return problems;
}
