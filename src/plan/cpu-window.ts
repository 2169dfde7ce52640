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

/**
 * For a preset whose profiles are too short: a variant of the same benchmark whose every profile
 * is long enough, and what it costs in measured time (the trade-off the user chooses).
 */
export function cpuVariantHint(
  check: CpuWindowCheck,
  preset: string | undefined,
  presets: readonly { name: string; variantOf?: string; config: { load?: unknown } }[],
): string | undefined {
  if (check.shortProfiles.length === 0 || !preset) return undefined;
  const root = presets.find((p) => p.name === preset)?.variantOf ?? preset;
  const measured = (load: unknown) =>
    (Array.isArray(load) ? load : [load]).map((p) => parseDurationMs(String((p as { duration?: unknown })?.duration ?? '')) ?? 0);
  const rates = (load: unknown) => JSON.stringify((Array.isArray(load) ? load : [load]).map((p) => (p as { rate?: unknown })?.rate));
  const own = presets.find((p) => p.name === preset)?.config.load;
  const current = measured(own);
  // The cheapest variant that is long enough; of two as cheap, the one that keeps the preset's rates.
  const fit = presets
    .filter((c) => c.name !== preset && (c.variantOf ?? c.name) === root)
    .map((c) => ({ name: c.name, durations: measured(c.config.load), sameRates: rates(c.config.load) === rates(own) }))
    .filter((c) => c.durations.length > 0 && c.durations.every((ms) => ms >= check.minimumMs))
    .map((c) => ({ name: c.name, longest: Math.max(...c.durations), sameRates: c.sameRates }))
    .sort((a, b) => a.longest - b.longest || Number(b.sameRates) - Number(a.sameRates))[0];
  if (!fit) return undefined;
  const ratio = current.length > 0 ? Math.round((10 * fit.longest) / Math.max(...current)) / 10 : undefined;
  return `Preset ${fit.name} measures ${fit.longest / 1000} s per repetition and gets it${ratio ? `, at ${ratio}× the measured time` : ''}.`;
}

/** One sentence for the plan's footer. */
export function describeCpuWindow(check: CpuWindowCheck): string {
  const minimum = `CPU per 1000 rps needs at least ${check.minimumMs / 1000} s measured per repetition (two kubelet refreshes of up to 30 s)`;
  if (check.shortProfiles.length === 0) return `${minimum}; every profile measures that long.`;
  const which = check.shortProfiles.map((p) => `"${p.name}" (${p.duration})`).join(', ');
  const one = check.shortProfiles.length === 1;
  return `${minimum}; profile${one ? '' : 's'} ${which} ${one ? 'is' : 'are'} shorter and may get none.`;
}
