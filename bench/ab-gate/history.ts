// One synthetic run through the product's own decisions, look by look, as the pipeline makes them:
// at each look the A/B gates of every mode with arms (analysis/analyze.ts evaluateAbGates: the
// family sharing one alpha, Holm, with the pooled dependence), the verdict (analysis/verdict.ts),
// the modes to extend (analyze.ts modesToExtend) and the step (plan/stopping.ts stepAfterLook);
// only the modes asked for get the next look's blocks; then the pipeline's final re-analysis
// (the same gates at the stopping look, final, with why it stopped). Nothing is re-implemented
// here: the noise comes from noise.ts, every decision from src/.
import { evaluateAbGates, modesToExtend } from '../../src/analysis/analyze.ts';
import type { SequentialDesign } from '../../src/analysis/ab/design.ts';
import { decideVerdict } from '../../src/analysis/verdict.ts';
import type { Config } from '../../src/config/validate.ts';
import { stepAfterLook } from '../../src/plan/stopping.ts';
import type { AbGateEvidence, StoppingRecord } from '../../src/results/analysis.ts';
import { RESULTS_SCHEMA_VERSION, type ModeResult, type Repetition, type RunResult } from '../../src/results/types.ts';
import type { Random } from '../../src/util/random.ts';
import { repetition, testConfig } from '../../test/analysis/synthetic.ts';
import { type ArmBlocks, drawRun, type NoiseModel } from './noise.ts';

/** The modes of a synthetic run: m0, m1, … each with arms; the gated statistic and its minimum. */
export function armsConfig(modes: number, statistic: 'p50' | 'p99', minEffectPct = 5): Config {
  return testConfig({
    modes: Array.from({ length: modes }, (_, i) => ({ name: `m${i}`, arms: { head: { local: { hops: 1 } } } })),
    load: { rate: 1000, duration: '6s', warmup: '2s', repetitions: 'auto' },
    gates: { ab: { statistics: [statistic], minEffectPct: { [statistic]: minEffectPct } } },
  });
}

export interface RunOutcome {
  /** Per gated mode, in order: its decision after the final re-analysis. */
  decisions: AbGateEvidence['decision'][];
  /** Per gated mode: the 0-based look of its last blocks, and the blocks it measured. */
  looks: number[];
  blocks: number[];
  stopping: StoppingRecord['reason'];
  /** The run's stopping look. */
  look: number;
}

/** One run of `shifts.length` gated modes through the design's looks. */
export function runHistory(
  random: Random,
  model: NoiseModel,
  config: Config,
  design: SequentialDesign,
  shifts: readonly number[],
): RunOutcome {
  const last = design.looks.length - 1;
  const data = drawRun(random, model, shifts.length, design.looks[last]!, shifts);
  const blocks = shifts.map(() => design.looks[0]!);
  for (let index = 0; ; index++) {
    const run = runOf(config, data, blocks);
    const look = { index, final: false };
    const ab = evaluateAbGates(run, config, { config, look, design });
    const gates = ab.map((o) => o.gate);
    const verdict = decideVerdict(run, gates).verdict;
    const extend = modesToExtend(run, gates, ab, verdict, [], config.baseline, look);
    const step = stepAfterLook({ verdict, gates, modesToExtend: extend }, index === last);
    if (step !== 'continue') {
      // The pipeline's final re-analysis: the stopping look, final, and why it stopped.
      const reason: StoppingRecord['reason'] = step === 'budget' ? 'budget-blocks' : step;
      const final = evaluateAbGates(run, config, {
        config,
        design,
        look: { index, final: true, ...(reason === 'decided' ? {} : { stoppedBy: reason }) },
      });
      return {
        decisions: final.map((o) => o.evidence.decision),
        looks: final.map((o) => o.evidence.look),
        blocks: [...blocks],
        stopping: reason,
        look: index,
      };
    }
    const next = design.looks[index + 1]!;
    shifts.forEach((_, m) => {
      if (extend.includes(`m${m}-head`)) blocks[m] = next;
    });
  }
}

/** The run as the pipeline would hold it at a look: each mode's arms with the blocks measured so far. */
function runOf(config: Config, data: readonly ArmBlocks[], blocks: readonly number[]): RunResult {
  const modes: ModeResult[] = [];
  let trial = 0;
  data.forEach((arms, m) => {
    for (const side of ['base', 'head'] as const) {
      const reps: Repetition[] = arms[side].slice(0, blocks[m]).map((level, b) => {
        const rep = repetition({ trial: trial++, block: b + 1, level: level.p50 });
        rep.latencyMs!.p99 = level.p99;
        return rep;
      });
      modes.push({ name: `m${m}-${side}`, profile: config.profiles[0]!.name, arm: { of: `m${m}`, side }, repetitions: reps });
    }
  });
  return {
    schemaVersion: RESULTS_SCHEMA_VERSION,
    verdict: 'pass',
    verdictReasons: [],
    run: {
      id: 'synthetic',
      suite: config.suite,
      startedAt: '2026-01-01T00:00:00Z',
      finishedAt: '2026-01-01T00:00:00Z',
      platform: config.platform,
      git: {},
      tools: {},
      machine: { cpuModel: 'synthetic', cores: 2, memoryMiB: 4096, os: 'linux', runnerClass: 'synthetic' },
      environment: {},
    },
    config: {},
    plan: { seed: 1, order: 'interleaved', trials: [] },
    baseline: config.baseline,
    modes,
  };
}
