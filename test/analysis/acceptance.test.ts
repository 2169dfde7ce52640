// Acceptance of the verdict engine on synthetic data of known distribution (issue 3):
//  - over 1,000 simulated A/A histories the regression gate's false-positive rate is ≤ 5 % at
//    the default settings;
//  - with 5 repetitions at CV 3 % it detects a 10 % shift in ≥ 80 % of cases;
//  - bootstrap CIs cover the true value at about their nominal rate.
// Each history is 10 past runs (the default window) and a candidate run, every run 5 interleaved
// blocks of baseline and sidecar. Runs go through analyzeRun exactly as the pipeline calls it,
// including the confirmation round when the first analysis asks for one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeRun } from '../../src/analysis/analyze.ts';
import { bootstrapInterval } from '../../src/analysis/bootstrap.ts';
import { computeOverhead } from '../../src/analysis/overhead.ts';
import { evidenceFor } from '../../src/analysis/regression.ts';
import type { Config } from '../../src/config/validate.ts';
import { seededRandom, type Random } from '../../src/util/random.ts';
import { drawLevels, lognormalFactor, syntheticRun, testConfig } from './synthetic.ts';

interface World {
  /** Run-to-run CV of one repetition within a job. */
  cv: number;
  /** CV of a whole job's speed (shared-runner lottery), applied to every mode of the job. */
  jobCv: number;
  /** True relative slowdown of the sidecar in the candidate run. */
  shift: number;
  repetitions: number;
  referenceRuns: number;
}

interface Outcome {
  failed: boolean;
  firstRoundFlagged: boolean;
  gatesFlaggedFirstRound: number;
  gates: number;
}

// CIs play no part in decisions; fewer resamples keep 1,000 histories fast.
const RESAMPLES = 50;

function run(config: Config, random: Random, world: World, id: string, shift: number, job: number, day: number) {
  return {
    config,
    id,
    startedAt: new Date(Date.UTC(2025, 0, 1 + day)).toISOString(),
    levels: {
      baseline: drawLevels(random, world.repetitions, 1, world.cv, job),
      sidecar: drawLevels(random, world.repetitions, 1.3 * (1 + shift), world.cv, job),
    },
  };
}

function history(config: Config, random: Random, world: World): Outcome {
  const reference = Array.from({ length: world.referenceRuns }, (_, i) =>
    syntheticRun(run(config, random, world, `past-${i}`, 0, lognormalFactor(random, world.jobCv), i)),
  );
  const job = lognormalFactor(random, world.jobCv);
  const candidate = run(config, random, world, 'candidate', world.shift, job, 100);
  const first = analyzeRun(syntheticRun(candidate), { config, reference, resamples: RESAMPLES });
  const regressionGates = first.gates.filter((g) => g.kind === 'regression');
  const outcome: Outcome = {
    failed: first.verdict === 'fail',
    firstRoundFlagged: first.verdict === 'fail',
    gatesFlaggedFirstRound: regressionGates.filter((g) => g.decision === 'fail').length,
    gates: regressionGates.length,
  };
  if (first.modesToExtend.length > 0) {
    // The confirmation round runs in the same job: same machine, same job effect.
    const again = run(config, random, world, 'candidate', world.shift, job, 100);
    const pooled = syntheticRun({ ...candidate, round2: again.levels });
    outcome.failed = analyzeRun(pooled, { config, reference, resamples: RESAMPLES }).verdict === 'fail';
  }
  return outcome;
}

function simulate(world: World, histories: number, seed: number, config: Config = testConfig()) {
  const random = seededRandom(seed);
  let failed = 0;
  let firstRound = 0;
  let gateFlags = 0;
  let gates = 0;
  for (let i = 0; i < histories; i++) {
    const outcome = history(config, random, world);
    if (outcome.failed) failed++;
    if (outcome.firstRoundFlagged) firstRound++;
    gateFlags += outcome.gatesFlaggedFirstRound;
    gates += outcome.gates;
  }
  return { failRate: failed / histories, firstRoundRate: firstRound / histories, perGateRate: gateFlags / gates };
}

test('A/A on a shared runner (CV 3 % per repetition, 10 % job to job): ≤ 5 % of 1,000 histories fail at the defaults', () => {
  const rates = simulate({ cv: 0.03, jobCv: 0.1, shift: 0, repetitions: 5, referenceRuns: 10 }, 1000, 101);
  console.log(
    `A/A shared runner: verdict fail ${(rates.failRate * 100).toFixed(1)}%, per gate before confirmation ${(rates.perGateRate * 100).toFixed(1)}%`,
  );
  assert.ok(rates.failRate <= 0.05, `false-positive rate ${rates.failRate}`);
  assert.ok(rates.perGateRate <= 0.05, `per-gate first-round rate ${rates.perGateRate}`);
});

test('A/A with noisy repetitions (CV 10 %): ≤ 5 % of 1,000 histories fail, and each gate alone holds alpha', () => {
  const rates = simulate({ cv: 0.1, jobCv: 0, shift: 0, repetitions: 5, referenceRuns: 10 }, 1000, 202);
  console.log(
    `A/A noisy: verdict fail ${(rates.failRate * 100).toFixed(1)}%, per gate before confirmation ${(rates.perGateRate * 100).toFixed(1)}%`,
  );
  assert.ok(rates.failRate <= 0.05, `false-positive rate ${rates.failRate}`);
  assert.ok(rates.perGateRate <= 0.05, `per-gate first-round rate ${rates.perGateRate}`);
});

test('A/B: 5 repetitions at CV 3 % detect a 10 % slowdown in ≥ 80 % of cases, also on a shared runner', () => {
  const quiet = simulate({ cv: 0.03, jobCv: 0, shift: 0.1, repetitions: 5, referenceRuns: 10 }, 300, 303);
  const shared = simulate({ cv: 0.03, jobCv: 0.1, shift: 0.1, repetitions: 5, referenceRuns: 10 }, 300, 404);
  console.log(
    `A/B +10%: detected ${(quiet.failRate * 100).toFixed(1)}% (quiet runner), ${(shared.failRate * 100).toFixed(1)}% (shared runner)`,
  );
  assert.ok(quiet.failRate >= 0.8, `detection rate ${quiet.failRate}`);
  assert.ok(shared.failRate >= 0.8, `detection rate on a shared runner ${shared.failRate}`);
});

test('bootstrap CIs of the median cover the true median at about the nominal rate', () => {
  const random = seededRandom(505);
  const trials = 1000;
  for (const n of [5, 10, 20]) {
    let covered = 0;
    for (let t = 0; t < trials; t++) {
      const sample = drawLevels(random, n, 2, 0.2); // lognormal: true median 2
      const ci = bootstrapInterval(sample, { random, resamples: 1000 })!;
      if (ci.low <= 2 && 2 <= ci.high) covered++;
    }
    const rate = covered / trials;
    // With n = 5 the percentile interval is [min, max], whose exact coverage is 1 − 2·0.5⁵ = 93.75 %.
    console.log(`median CI coverage n=${n}: ${(rate * 100).toFixed(1)}%`);
    assert.ok(rate >= 0.9 && rate <= 0.99, `coverage ${rate} at n=${n}`);
  }
});

test('CIs of the paired overhead and of the regression change cover the true value at about the nominal rate', () => {
  const random = seededRandom(606);
  const config = testConfig();
  const context = { seed: 1, resamples: 1000, level: 0.95, alpha: 0.05 };
  const settings = { minEffectPct: 5, minEffectMs: 0.05, alpha: 0.05 };
  const trials = 400;
  let overheadCovered = 0;
  let changeCovered = 0;
  for (let t = 0; t < trials; t++) {
    // 10 blocks with a drift shared by both modes; sidecar = 1.3 × baseline × noise: true ratio 1.3.
    const drift = drawLevels(random, 10, 1, 0.1);
    const levels = {
      baseline: drift.map((d) => d * lognormalFactor(random, 0.03)),
      sidecar: drift.map((d) => 1.3 * d * lognormalFactor(random, 0.03)),
    };
    const now = syntheticRun({ config, id: `now-${t}`, seed: t, levels });
    const ratio = computeOverhead(now.modes[1]!, now.modes[0]!, 'p50', { ...context, seed: t })!.ratio!;
    if (ratio.ci!.low <= 1.3 && 1.3 <= ratio.ci!.high) overheadCovered++;
    // Candidate and reference from the same distribution: true change 0.
    const candidate = drawLevels(random, 10, 1, 0.05);
    const reference = [drawLevels(random, 10, 1, 0.05)];
    const change = evidenceFor(candidate, reference, 1, true, settings, { ...context, seed: t }, ['coverage']).change;
    if (change.ci!.low <= 0 && 0 <= change.ci!.high) changeCovered++;
  }
  console.log(
    `overhead ratio CI coverage ${((overheadCovered / trials) * 100).toFixed(1)}%, regression change CI coverage ${((changeCovered / trials) * 100).toFixed(1)}%`,
  );
  assert.ok(overheadCovered / trials >= 0.9 && overheadCovered / trials <= 0.99, `overhead coverage ${overheadCovered / trials}`);
  assert.ok(changeCovered / trials >= 0.9 && changeCovered / trials <= 0.99, `change coverage ${changeCovered / trials}`);
});
