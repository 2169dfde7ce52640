// The A/B gate: a mode's head arm against its base arm, measured in the same randomized blocks of
// the same run. Per block the log(head ÷ base) of the gated statistic is one observation: the
// machine's drift hits both arms of a block alike and cancels (Duet / RMIT, decisions.md).
//   pass          the upper bound at this look's pass boundary is under the practical minimum
//                 (non-inferiority: "slower by less than 5 % and 0.05 ms", a slowdown must exceed
//                 both to matter, as the regression gate defines it);
//   fail          significantly slower at this look's fail boundary and not shown under the
//                 minimum (a real slowdown shown smaller than the minimum passes); the boundary is
//                 this gate's share of the run's alpha (family.ts: Holm over every A/B gate);
//   inconclusive  neither: "continue" while looks remain, "budget-spent" at the last one, with the
//                 paired blocks that would settle it at this noise.
// Evidence is numbers and codes; the words are made in one place (report/ab-words.ts).
import type { AbGateSettings } from '../../config/sections/gates.ts';
import type { AbGateEvidence } from '../../results/analysis.ts';
import type { GateEvidence } from '../../results/evidence.ts';
import type { MetricId } from '../../results/metric-ids.ts';
import { METRICS } from '../../results/metrics.ts';
import type { ModeResult } from '../../results/types.ts';
import { median } from '../descriptive.ts';
import { normalQuantile } from '../distributions.ts';
import { pairByBlock } from '../overhead.ts';
import { validRepetitions } from '../summary.ts';
import { failLevels, finalAt, MIN_AB_PAIRS, type SequentialDesign } from './design.ts';
import { type Dependence, effectiveDf, INDEPENDENT } from './dependence.ts';
import { estimate, referenceQuantile, scaledBound, scaledP, widenedBound } from './estimators.ts';
import { minEffectPctOf } from '../../config/sections/gates.ts';

export interface AbGateInput {
  /** The mode the arms belong to. */
  mode: string;
  profile: string;
  statistic: MetricId;
  base: ModeResult | undefined;
  head: ModeResult | undefined;
  settings: AbGateSettings;
  design: SequentialDesign;
  /**
   * 0-based look of the run; final when measuring stops here whatever the gate says. A gate whose
   * arms stopped earlier (it decided) is judged at the last look its blocks reached.
   */
  look: { index: number; final: boolean; stoppedBy?: string };
  /** Share of the run's alpha this gate may spend (Holm: 1 ÷ gates not yet failed); default 1. */
  alphaShare?: number;
  /** A/B gates of the run sharing its alpha (for the evidence); default 1. */
  family?: number;
  /** How dependent the run's blocks are (dependence.ts); default independent. */
  dependence?: Dependence;
}

const POWER = 0.8;
const UNBOUNDED = 50;

/**
 * The gate at its look. A final look that is not the design's last (measuring stopped early: the
 * time budget, another gate failing the run) first judges at the look's own boundaries: a gate
 * that decided there keeps that decision (the run's final re-analysis must not turn a fail into a
 * pass by loosening the pass side, which spending everything left at an early look can do:
 * test/analysis/ab-gate.test.ts finds such a gate); only a gate still undecided spends what is
 * left (finalAt).
 */
export function evaluateAbGate(input: AbGateInput): { evidence: AbGateEvidence; gate: GateEvidence } {
  const interim = judge(input, false);
  if (!input.look.final || interim.evidence.decision !== 'inconclusive' || interim.evidence.reason === 'arm-invalid') return interim;
  return judge(input, true);
}

function judge(input: AbGateInput, finalLook: boolean): { evidence: AbGateEvidence; gate: GateEvidence } {
  const { settings, statistic } = input;
  const dependence = input.dependence ?? INDEPENDENT;
  const share = input.alphaShare ?? 1;
  const headReps = input.head ? validRepetitions(input.head) : [];
  const baseReps = input.base ? validRepetitions(input.base) : [];
  const pairs = pairedBlocks(input.base, input.head, statistic);
  const look = lookOfGate(input.design, input.look.index, pairs.length);
  const final = finalLook || look === input.design.looks.length - 1;
  const design = final ? finalAt(input.design, look) : input.design;
  const failAlpha = failLevels(design, share)[look]!;
  const passAlpha = design.passAlpha[look]!;
  const logs = pairs.map((p) => Math.log(p.mode / p.baseline));
  const baseMs = pairs.length > 0 ? median(pairs.map((p) => p.baseline)) : 0;
  const headMs = pairs.length > 0 ? median(pairs.map((p) => p.mode)) : 0;
  const minEffect = minEffectPctOf(settings, statistic) / 100;
  const minimum = Math.max(minEffect, baseMs > 0 ? settings.minEffectMs / baseMs : 0);
  const common = {
    mode: input.mode,
    profile: input.profile,
    statistic,
    pairs: pairs.length,
    estimator: settings.estimator,
    nominalAlpha: failAlpha,
    baseMs,
    headMs,
    differenceMs: headMs - baseMs,
    minEffect,
    minEffectMs: settings.minEffectMs,
    minimum,
    look,
    looks: input.design.looks.length,
    family: input.family ?? 1,
    alphaShare: share,
    dependence: dependence.factor,
    perBlock: pairs.map((p) => ({ block: p.block, ratio: p.mode / p.baseline })),
  };
  let evidence: AbGateEvidence;
  if (pairs.length < MIN_AB_PAIRS) {
    // An arm with no value of the statistic in any valid repetition (every request failed, so no
    // latency) has nothing to pair, whatever the other arm did.
    const measured = (reps: typeof headReps) => reps.some((r) => METRICS[statistic].extract(r) !== undefined);
    const armInvalid = !measured(headReps) || !measured(baseReps);
    const center = logs.length > 0 ? median(logs) : 0;
    const reason: AbGateEvidence['reason'] = armInvalid ? 'arm-invalid' : final ? 'too-few-blocks' : 'continue';
    evidence = {
      ...common,
      change: { value: Math.expm1(center), low: Math.expm1(center), high: Math.expm1(center), level: 0 },
      upperBound: Math.expm1(center),
      p: 1,
      decision: 'inconclusive',
      reason,
      ...(reason === 'too-few-blocks' ? { blocksToSettle: null } : {}),
      mde: null,
      spread: 0,
    };
  } else {
    const e = estimate(settings.estimator, logs);
    const logMinimum = Math.log1p(minimum);
    // A bound the estimator cannot give at this level is unbounded; kept finite for JSON (e^±50).
    const lower = Math.max(scaledBound(e, failAlpha, dependence), -UNBOUNDED);
    const upper = Math.min(widenedBound(e, 1 - passAlpha, dependence), UNBOUNDED);
    const inflated = e.se * Math.sqrt(dependence.factor);
    const shownSmall = upper < logMinimum;
    const significant = lower > 0;
    const tooSmallToFailYet = !final && e.center < logMinimum / 2;
    const decision: AbGateEvidence['decision'] = shownSmall ? 'pass' : significant && !tooSmallToFailYet ? 'fail' : 'inconclusive';
    const reason: AbGateEvidence['reason'] =
      decision === 'pass'
        ? 'within-minimum'
        : decision === 'fail'
          ? 'slower'
          : !final
            ? 'continue'
            : input.look.stoppedBy === 'gate-failed'
              ? 'run-stopped'
              : 'budget-spent';
    const df = effectiveDf(Number.isFinite(e.df) ? e.df : pairs.length - 1, dependence.factor);
    const mdeLog = (referenceQuantile(1 - failAlpha, df) + normalQuantile(POWER)) * inflated;
    evidence = {
      ...common,
      change: { value: Math.expm1(e.center), low: Math.expm1(lower), high: Math.expm1(upper), level: 1 - failAlpha - passAlpha },
      upperBound: Math.expm1(upper),
      p: scaledP(e, dependence),
      decision,
      reason,
      ...(reason === 'budget-spent'
        ? {
            blocksToSettle: blocksToSettle(
              e.center,
              inflated * Math.sqrt(pairs.length),
              logMinimum,
              { alpha: settings.alpha * share, confidence: settings.confidence },
              pairs.length,
            ),
          }
        : {}),
      mde: Number.isFinite(mdeLog) && e.se > 0 ? Math.expm1(mdeLog) : null,
      spread: inflated * Math.sqrt(pairs.length),
    };
  }
  return { evidence, gate: gateResult(evidence) };
}

/** Blocks in which both arms have a valid, positive value of the statistic, in block (time) order. */
export function pairedBlocks(base: ModeResult | undefined, head: ModeResult | undefined, statistic: MetricId) {
  const headReps = head ? validRepetitions(head) : [];
  const baseReps = base ? validRepetitions(base) : [];
  return pairByBlock(headReps, baseReps, statistic).filter((p) => p.mode > 0 && p.baseline > 0);
}

/**
 * The look a gate is judged at: the run's look, or for a gate whose arms stopped getting blocks
 * (it decided earlier), the last look its blocks reached, so its decision stands as it was made.
 */
export function lookOfGate(design: SequentialDesign, runLook: number, pairs: number): number {
  let look = Math.min(runLook, design.looks.length - 1);
  while (look > 0 && design.looks[look]! > pairs) look--;
  return look;
}

/**
 * Paired blocks a single fixed-size look would need, at this noise, to tell the estimate from 0
 * (fail) or from the minimum (pass), whichever comes first; null when the noise is unknown.
 */
export function blocksToSettle(
  center: number,
  spread: number,
  logMinimum: number,
  settings: Pick<AbGateSettings, 'alpha' | 'confidence'>,
  current: number,
): number | null {
  if (!(spread > 0)) return null;
  const options: number[] = [];
  if (center < logMinimum) options.push(((normalQuantile(settings.confidence) * spread) / (logMinimum - center)) ** 2);
  if (center > 0) options.push(((normalQuantile(1 - settings.alpha) * spread) / center) ** 2);
  if (options.length === 0) return null;
  return Math.max(current + 1, Math.ceil(Math.min(...options)));
}

function gateResult(evidence: AbGateEvidence): GateEvidence {
  return {
    kind: 'ab',
    gate: `ab ${METRICS[evidence.statistic].label}`,
    mode: evidence.mode,
    profile: evidence.profile,
    metric: evidence.statistic,
    measure: 'change',
    unit: 'relative',
    value: { value: evidence.change.value, ci: { low: evidence.change.low, high: evidence.change.high, level: evidence.change.level } },
    decision: evidence.decision,
    ...(evidence.mde === null ? {} : { mde: evidence.mde }),
    ab: evidence,
  };
}
