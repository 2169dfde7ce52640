// The statistics side of the sensitivity benchmark. Given one measured session (interleaved
// blocks of a baseline mode, an A/A mode and A/B modes with injected delay), it draws many
// pairs of "runs" from disjoint subsets of blocks and judges each candidate against its
// reference with the real engine (analyzeRun), confirmation round included. Pure: no I/O.
import { analyzeRun } from '../../src/analysis/analyze.ts';
import { DEFAULT_RESAMPLES } from '../../src/analysis/bootstrap.ts';
import { median } from '../../src/analysis/descriptive.ts';
import { validRepetitions } from '../../src/analysis/summary.ts';
import { validateConfig, type Config } from '../../src/config/validate.ts';
import type { ModeResult, Repetition, RunResult } from '../../src/results/types.ts';
import { seededRandom, shuffle } from '../../src/util/random.ts';

export interface SensitivityOptions {
  /** Mode every block has, the runs' baseline. */
  baseline: string;
  /** The mode both runs of an A/A trial take their "x" from. */
  same: string;
  /** Modes with injected extra delay; an A/B trial's candidate takes "x" from one of them. */
  shifted: string[];
  repetitions: number;
  trials: number;
  seed: number;
  confirm: boolean;
  /** Practical minimum in percent (the default gate: 5). */
  minEffectPct?: number;
  /** gates.regression.basis (default auto: x judged as its ratio to the baseline per block). */
  basis?: 'auto' | 'absolute';
  /** Reference runs of `repetitions` blocks each (default 1, as one stored results file). */
  referenceRuns?: number;
  /** Bootstrap resamples per interval (default: the product's, 2,000; fewer judge faster and move single rates by a few points). */
  resamples?: number;
}

export interface Rate {
  /** Trials whose verdict was fail. */
  flagged: number;
  trials: number;
  /** Median MDE the gate reported for x (relative), over the trials. */
  medianMde: number | null;
}

export interface SensitivityResult {
  blocks: number;
  repetitions: number;
  /** A/A: the x gate alone, and any gate of the run (x and the baseline itself). */
  falseAlarms: Rate;
  falseAlarmsAnyGate: Rate;
  detection: Record<string, Rate>;
}

/** Blocks in which every needed mode has a valid repetition. */
export function completeBlocks(result: RunResult, modes: string[]): number[] {
  const byMode = modes.map((name) => new Set(validRepetitions(findMode(result, name)).map((r) => r.block)));
  return [...byMode[0]!].filter((b) => byMode.every((set) => set.has(b))).sort((a, b) => a - b);
}

/** Median over blocks of mode ÷ reference for p50: the effect the injection really made. */
export function measuredEffect(result: RunResult, mode: string, reference: string): number {
  return pairedMedian(result, mode, reference, (x, ref) => x / ref) - 1;
}

/** Median over blocks of mode − reference p50 in ms: the shift an added delay really made. */
export function pairedShiftMs(result: RunResult, mode: string, reference: string): number {
  return pairedMedian(result, mode, reference, (x, ref) => x - ref);
}

/** Median over the blocks both modes have valid of a contrast of their p50s. */
function pairedMedian(result: RunResult, mode: string, reference: string, contrast: (x: number, ref: number) => number): number {
  const a = new Map(validRepetitions(findMode(result, reference)).map((r) => [r.block, r.latencyMs!.p50]));
  return median(
    validRepetitions(findMode(result, mode))
      .filter((r) => a.has(r.block))
      .map((r) => contrast(r.latencyMs!.p50, a.get(r.block)!)),
  );
}

/** Disjoint blocks one trial takes: the reference runs, the candidate and its confirmation round. */
export function blocksPerTrial(options: Pick<SensitivityOptions, 'referenceRuns' | 'confirm' | 'repetitions'>): number {
  return ((options.referenceRuns ?? 1) + (options.confirm ? 2 : 1)) * options.repetitions;
}

export function simulate(session: RunResult, options: SensitivityOptions): SensitivityResult {
  // A block serves a comparison when the baseline and that comparison's mode are both valid in
  // it; one invalid repetition elsewhere in the block does not waste it.
  const usable = (x: string) => new Set(completeBlocks(session, [options.baseline, x]));
  const referenceBlocks = usable(options.same);
  const allBlocks = [...new Set(session.modes.flatMap((m) => m.repetitions.map((r) => r.block)))].sort((a, b) => a - b);
  const k = options.repetitions;
  const config = judgeConfig(session, options.confirm, options.minEffectPct, options.basis);
  const random = seededRandom(options.seed);
  const falseAlarms = tally();
  const anyGate = tally();
  const detection = Object.fromEntries(options.shifted.map((m) => [m, tally()]));
  for (const x of [options.same, ...options.shifted]) {
    const candidateBlocks = usable(x);
    const needed = blocksPerTrial(options);
    if (Math.min(referenceBlocks.size, candidateBlocks.size) < k || new Set([...referenceBlocks, ...candidateBlocks]).size < needed) {
      throw new Error(
        `too few usable blocks for ${x} (${candidateBlocks.size}) and ${options.same} (${referenceBlocks.size}): ${needed} disjoint blocks are needed`,
      );
    }
  }
  for (let t = 0; t < options.trials; t++) {
    const order = shuffle(allBlocks, random);
    const runs = options.referenceRuns ?? 1;
    const ref = order.filter((b) => referenceBlocks.has(b)).slice(0, runs * k);
    const reference = Array.from({ length: runs }, (_, i) =>
      runFrom(session, config, `ref-${t}-${i}`, options.baseline, options.same, ref.slice(i * k, (i + 1) * k)),
    );
    for (const x of [options.same, ...options.shifted]) {
      const candidateBlocks = usable(x);
      const rest = order.filter((b) => candidateBlocks.has(b) && !ref.includes(b));
      const [cand, extra] = [rest.slice(0, k), rest.slice(k, 2 * k)];
      if (cand.length < k || (options.confirm && extra.length < k)) continue;
      const analysis = judge(session, config, reference, options.baseline, x, cand, extra, t, options.resamples ?? DEFAULT_RESAMPLES);
      const xGate = analysis.gates.find((g) => g.kind === 'regression' && g.mode === 'x');
      const bucket = x === options.same ? falseAlarms : detection[x]!;
      bucket.trials++;
      if (xGate?.decision === 'fail') bucket.flagged++;
      if (typeof xGate?.mde === 'number') bucket.mdes.push(xGate.mde);
      if (x === options.same) {
        anyGate.trials++;
        if (analysis.verdict === 'fail') anyGate.flagged++;
      }
    }
  }
  return {
    blocks: allBlocks.length,
    repetitions: k,
    falseAlarms: finish(falseAlarms),
    falseAlarmsAnyGate: finish(anyGate),
    detection: Object.fromEntries(Object.entries(detection).map(([m, r]) => [m, finish(r)])),
  };
}

function judge(
  session: RunResult,
  config: Config,
  reference: RunResult[],
  baseline: string,
  x: string,
  cand: number[],
  extra: number[],
  t: number,
  resamples: number,
) {
  const candidate = runFrom(session, config, `cand-${t}`, baseline, x, cand);
  const first = analyzeRun(candidate, { config, reference, resamples });
  if (first.modesToExtend.length === 0) return first;
  // The pipeline would now re-run the flagged modes and the baseline as round 2.
  const round2 = runFrom(session, config, `cand-${t}`, baseline, x, extra, 2);
  const pooled = {
    ...candidate,
    modes: candidate.modes.map((m) => ({
      ...m,
      repetitions: [...m.repetitions, ...round2.modes.find((r) => r.name === m.name)!.repetitions],
    })),
  };
  return analyzeRun(pooled, { config, reference, resamples });
}

/** A run made of the session's repetitions of `baseline` and `x` (renamed "x") in the given blocks. */
function runFrom(session: RunResult, config: Config, id: string, baseline: string, x: string, blocks: number[], round = 1): RunResult {
  const pick = (mode: ModeResult, name: string): ModeResult => ({
    name,
    profile: mode.profile,
    repetitions: validRepetitions(mode)
      .filter((r) => blocks.includes(r.block))
      .map((r): Repetition => ({ ...r, round })),
  });
  return {
    ...session,
    run: { ...session.run, id },
    config: config as unknown as Record<string, unknown>,
    baseline: 'base',
    modes: [pick(findMode(session, baseline), 'base'), pick(findMode(session, x), 'x')],
  };
}

/** Default gates, confirmation as asked; the runs' modes are "base" and "x" on the session's load. */
function judgeConfig(session: RunResult, confirm: boolean, minEffectPct?: number, basis: 'auto' | 'absolute' = 'auto'): Config {
  const profile = (session.config as { profiles?: { name: string; rate?: number; duration: string }[] }).profiles?.[0];
  const config = validateConfig({
    platform: session.run.platform,
    modes: [{ name: 'base' }, { name: 'x' }],
    load: { name: profile?.name ?? session.modes[0]!.profile, rate: profile?.rate ?? 1000, duration: profile?.duration ?? '10s' },
  });
  const regression = { ...config.gates.regression, confirm, basis, ...(minEffectPct !== undefined ? { minEffectPct } : {}) };
  return { ...config, gates: { ...config.gates, regression } };
}

function findMode(result: RunResult, name: string): ModeResult {
  const mode = result.modes.find((m) => m.name === name);
  if (!mode) throw new Error(`the session has no mode "${name}" (modes: ${result.modes.map((m) => m.name).join(', ')})`);
  return mode;
}

function tally() {
  return { flagged: 0, trials: 0, mdes: [] as number[] };
}

function finish(t: ReturnType<typeof tally>): Rate {
  return { flagged: t.flagged, trials: t.trials, medianMde: t.mdes.length > 0 ? median(t.mdes) : null };
}
