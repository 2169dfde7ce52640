// Whether a plan's repetitions are long enough for a CPU-per-1000-rps figure: on Kubernetes
// platforms CPU comes from two kubelet samples inside the measured window (src/resources/
// refresh.ts), and a shorter window gets none. Pure.
import type { Config } from '../config/validate.ts';
import { parseDurationMs } from '../config/duration.ts';
import { minimumCpuWindowMs } from './kubelet-refresh.ts';

export interface CpuWindowCheck {
  minimumMs: number;
  /** Profiles measuring less than that: their repetitions may get no CPU figure. */
  shortProfiles: { name: string; duration: string }[];
}

/** Undefined on platforms that do not sample CPU (local, endpoints). */
export function cpuWindowCheck(config: Config): CpuWindowCheck | undefined {
  if (config.platform !== 'kind' && config.platform !== 'kubeconfig') return undefined;
  const minimumMs = minimumCpuWindowMs(parseDurationMs(config.kubernetes.sampleInterval) ?? 2000);
  const shortProfiles = config.profiles.filter((p) => p.durationMs < minimumMs).map((p) => ({ name: p.name, duration: p.duration }));
  return { minimumMs, shortProfiles };
}

/** One sentence for the plan's footer. */
export function describeCpuWindow(check: CpuWindowCheck): string {
  const minimum = `CPU per 1000 rps needs at least ${check.minimumMs / 1000} s measured per repetition (two kubelet refreshes of up to 15 s)`;
  if (check.shortProfiles.length === 0) return `${minimum}; every profile measures that long.`;
  const which = check.shortProfiles.map((p) => `"${p.name}" (${p.duration})`).join(', ');
  const one = check.shortProfiles.length === 1;
  return `${minimum}; profile${one ? '' : 's'} ${which} ${one ? 'is' : 'are'} shorter and may get none.`;
}
