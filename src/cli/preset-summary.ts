// What a preset will do, for `mesh-perf presets` and `mesh-perf plan --preset`: its modes, load
// profiles, trial count and a wall-clock estimate from the same plan the run would execute.
import { formatDuration } from '../config/duration.ts';
import { validateConfig, type Config } from '../config/validate.ts';
import { buildPlan, estimateSeconds, scalingSeconds, scalingSteps } from '../plan/plan.ts';
import type { Preset } from '../presets/types.ts';
import { wrap } from '../report/terminal.ts';

export interface PresetProfileSummary {
  name: string;
  model: 'open' | 'closed';
  /** "200 rps" or "500 VUs". */
  load: string;
  protocol: string;
  method: string;
  duration: string;
  warmup: string;
  repetitions: number;
  /** Echo pods per mode during this profile, when the profile sets its own. */
  replicas?: number;
}

export interface PresetSummary {
  name: string;
  source: string;
  summary: string;
  platform: string;
  modes: string[];
  profiles: PresetProfileSummary[];
  trials: number;
  /** Warm-up + measurement + pauses over all trials; the platform's steps are the plan's job estimate. */
  estimateSeconds: number;
  /** Echo server pods per mode on Kubernetes platforms. */
  replicas?: number;
  /** Istio's ingress gateway in front of every mode (kubernetes.ingress). */
  ingress?: { replicas: number; tls: boolean };
  /** Scaling steps between profiles and their estimated seconds (not in estimateSeconds). */
  scalingSteps: number;
  scalingSeconds: number;
}

// A fixed seed: the summary shows the shape of the plan, not one run's random block order.
const SUMMARY_SEED = 1;

/** A preset's summary; `config` is the effective config when a file or flags changed the preset. */
export function presetSummary(preset: Preset, config: Config = validateConfig(preset.config, `preset ${preset.name}`)): PresetSummary {
  const plan = buildPlan(config, config.plan.seed ?? SUMMARY_SEED);
  const replicas = config.kubernetes.replicas;
  const kubernetes = config.platform === 'kind' || config.platform === 'kubeconfig';
  const steps = kubernetes ? scalingSteps(plan, replicas) : [];
  return {
    name: preset.name,
    source: preset.source,
    summary: preset.summary,
    platform: config.platform,
    modes: config.modes.map((m) => m.name),
    profiles: config.profiles.map((p) => ({
      name: p.name,
      model: p.model,
      load: p.model === 'closed' ? `${p.vus} VUs` : `${p.rate} rps`,
      protocol: p.protocol,
      method: p.protocol === 'grpc' ? 'unary' : p.method,
      duration: formatDuration(p.durationMs),
      warmup: formatDuration(p.warmupMs),
      repetitions: p.repetitions,
      ...(p.replicas !== undefined ? { replicas: p.replicas } : {}),
    })),
    trials: plan.trials.length,
    estimateSeconds: estimateSeconds(plan),
    ...(replicas !== undefined ? { replicas } : {}),
    ...(config.kubernetes.ingress ? { ingress: config.kubernetes.ingress } : {}),
    scalingSteps: steps.length,
    scalingSeconds: scalingSeconds(steps),
  };
}

/** "1h 2m", "8m 40s", "45s". */
export function formatEstimate(seconds: number): string {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  if (h >= 48) return `${Math.round(h / 24).toLocaleString('en-US')} days`;
  if (h > 0) return m > 0 ? `${h}h ${m}m` : `${h}h`;
  if (m > 0) return rest > 0 ? `${m}m ${rest}s` : `${m}m`;
  return `${rest}s`;
}

/** The one line `mesh-perf presets` prints per preset. */
/**
 * One preset in `mesh-perf presets`: name, source, trials and time, then what it reproduces,
 * beside them when it fits `columns`, else wrapped below them, indented.
 */
export function presetLine(summary: PresetSummary, nameWidth: number, columns = Infinity): string {
  const head = `${summary.name.padEnd(nameWidth)}  source ${summary.source}  ${String(summary.trials).padStart(3)} trials  ~${formatEstimate(summary.estimateSeconds + summary.scalingSeconds).padEnd(7)}`;
  const line = `${head}  ${summary.summary}`;
  if (line.length <= columns) return line;
  return [head.trimEnd(), ...wrap(`    ${summary.summary}`, columns)].join('\n');
}

/** The block `mesh-perf plan --preset <name>` prints above the trial table. */
export function formatPresetSummary(summary: PresetSummary): string {
  const perProfile = summary.profiles.some((p) => p.replicas !== undefined);
  const pods = (n: number) => `${n} echo pod${n === 1 ? '' : 's'}`;
  const lines = [
    `preset ${summary.name} (source benchmark ${summary.source}): ${summary.summary}`,
    `platform ${summary.platform}${summary.replicas !== undefined && !perProfile ? `, ${pods(summary.replicas)} per mode` : ''}${perProfile ? ', echo pods per mode set by each load profile' : ''}`,
    ...(summary.ingress
      ? [
          `ingress: Istio gateway (Gateway API, gatewayClassName istio), ${summary.ingress.replicas} pod${summary.ingress.replicas === 1 ? '' : 's'}, ${summary.ingress.tls ? 'HTTPS with a self-signed certificate' : 'HTTP'}; the client sends through it`,
        ]
      : []),
    `modes: ${summary.modes.join(', ')}`,
    'load profiles:',
    ...summary.profiles.map(
      (p) =>
        `  ${p.name}: ${p.replicas !== undefined ? `${pods(p.replicas)}, ` : ''}${p.model} model, ${p.load}, ${p.protocol} ${p.method}, ${p.duration} measured after ${p.warmup} warm-up, ${p.repetitions} repetition${p.repetitions === 1 ? '' : 's'} per mode`,
    ),
    `${summary.trials} trials (${summary.modes.length} mode${summary.modes.length === 1 ? '' : 's'} × ${summary.profiles.length} profile${summary.profiles.length === 1 ? '' : 's'} × repetitions), ~${formatEstimate(summary.estimateSeconds)} of load`,
    ...(summary.scalingSteps > 0
      ? [
          `  plus ${summary.scalingSteps} scaling step${summary.scalingSteps === 1 ? '' : 's'} between profiles, ~${formatEstimate(summary.scalingSeconds)} (estimated): ~${formatEstimate(summary.estimateSeconds + summary.scalingSeconds)} in all`,
        ]
      : []),
    // The platform's own steps are in the plan's whole-job estimate (plan/job-estimate.ts).
    "  plus the platform's setup: the whole job is estimated below the trials",
  ];
  return lines.join('\n');
}

/** For `mesh-perf plan --preset NAME`: the preset's summary block, or undefined for an unknown name. */
export function presetHeader(name: string, presets: readonly Preset[], config?: Config): string | undefined {
  const preset = presets.find((p) => p.name === name);
  if (!preset) return undefined;
  const summary = presetSummary(preset, config);
  // The preset's one-line description states its own rate and modes; once a file or flags
  // change what runs, say so instead of repeating figures that no longer hold.
  const changed =
    config !== undefined && JSON.stringify({ ...presetSummary(preset), summary: '' }) !== JSON.stringify({ ...summary, summary: '' });
  return formatPresetSummary(changed ? { ...summary, summary: 'as changed by the config file and flags (below: what will run)' } : summary);
}
