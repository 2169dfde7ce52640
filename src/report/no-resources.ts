// Why a run or repetition has no CPU/memory figures, for the reports that would show them. Pure.
import { KUBELET_REFRESH_MAX_MS } from '../plan/kubelet-refresh.ts';

export function noResourcesReason(platform: string): string {
  if (platform === 'kind' || platform === 'kubeconfig') {
    return `the measured window held fewer than the two kubelet samples CPU needs (the kubelet refreshes every 10-30 s: measure for at least ${(2 * KUBELET_REFRESH_MAX_MS) / 1000} s), or the metrics were unavailable (see the run's warnings)`;
  }
  return `platform ${platform} does not sample resources`;
}
