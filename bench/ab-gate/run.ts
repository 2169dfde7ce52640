// Benchmark (not a test): the A/B gate on synthetic histories of known distribution, beside the
// fixed-repetition history gate on the same noise.
//   npx tsx bench/ab-gate/run.ts [--histories 1000] [--samples 4000] [--only coverage|ab|history|tau]
// 1. Coverage of each estimator's interval of the true change (r 3.5 % and 5 %, with and without
//    5 % outlier blocks, at 6, 12 and 18 blocks): the figure the default estimator is chosen by.
// 2. The A/B gate through its looks (default design: looks at 6, 9, …, 27 blocks, alpha 1 % spent
//    O'Brien–Fleming-type on the fail side, 5 % spent as total·t² on the pass side), A/A and a true
//    +5 % on p50: conclusive pass, fails, inconclusive, mean and maximum blocks to a decision and
//    the wall time that is at the default repetition length with arms (2 arms × (6 s + 2 s) per
//    block), at 18, 24 and the default 27 blocks at most.
// 3. The history gate as it is today (3 repetitions, against 1 and 10 stored runs, confirmation
//    round included) on the same per-block noise, no job-to-job drift: its best case.
// 4. The history gate with job-to-job drift τ 2 % of the ratio (5 repetitions, 1 and 10 stored
//    runs): how often "within 5 %" is said at a true +5 % (nominal 5 %), now that the pass bound
//    includes τ estimated from the stored runs.
// Figures feed docs/methodology-statistics.md; test/analysis/ab-acceptance.test.ts asserts the targets.
import { analyzeRun } from '../../src/analysis/analyze.ts';
import { sequentialDesign } from '../../src/analysis/ab/design.ts';
import { BUDGET_DEFAULTS } from '../../src/config/schema.ts';
import { AB_ESTIMATORS } from '../../src/config/sections/gates.ts';
import { alignTable } from '../../src/util/text-table.ts';
import { seededRandom } from '../../src/util/random.ts';
import { gaussian, syntheticRun, testConfig } from '../../test/analysis/synthetic.ts';
import { coverage, drawBlocks, type NoiseCase, sequentialRates } from './simulate.ts';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const histories = Number(arg('histories', '1000'));
const samples = Number(arg('samples', '4000'));
const only = arg('only', 'all');
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const NOISE: [string, Omit<NoiseCase, 'shift'>][] = [
  ['r 3.5%', { r: 0.035, outliers: 0 }],
  ['r 3.5% + 5% outlier blocks', { r: 0.035, outliers: 0.05 }],
  ['r 5%', { r: 0.05, outliers: 0 }],
  ['r 5% + 5% outlier blocks', { r: 0.05, outliers: 0.05 }],
];
/** The default repetition length with arms (REPETITION_DEFAULTS: 6 s measured + 2 s warm-up), two arms per block. */
const BLOCK_SECONDS = 2 * (6 + 2);
const minutes = (blocks: number) => {
  const s = Math.round(blocks * BLOCK_SECONDS);
  return `${Math.floor(s / 60)} m ${String(s % 60).padStart(2, '0')} s`;
};
const config = testConfig();

if (only === 'all' || only === 'coverage') {
  const rows = [['estimator', 'noise', 'blocks', '90% two-sided', '95% upper', '99% lower', 'mean width (90%)']];
  for (const name of AB_ESTIMATORS)
    for (const [label, noise] of NOISE)
      for (const blocks of [6, 12, 18]) {
        const c = coverage(name, { ...noise, shift: 0 }, blocks, samples, 11);
        rows.push([name, label, String(blocks), pct(c.twoSided), pct(c.upper), pct(c.lower), pct(c.width)]);
      }
  console.log(`Coverage of the true change, ${samples} samples per row (nominal 90 % / 95 % / 99 %)\n`);
  console.log(alignTable(rows));
  console.log('');
}

if (only === 'all' || only === 'ab') {
  const settings = config.gates.ab;
  const rows = [
    [
      'noise',
      'budget',
      'A/A pass',
      'A/A fail',
      'A/A inconcl.',
      'A/A mean blocks',
      'A/A max',
      'A/A mean time',
      '+5% caught',
      '+5% passed',
      '+5% mean blocks',
      '+5% max',
    ],
  ];
  for (const maxBlocks of [18, 24, BUDGET_DEFAULTS.maxBlocks]) {
    const design = sequentialDesign({ minBlocks: 6, maxBlocks }, settings);
    NOISE.forEach(([label, noise], i) => {
      const aa = sequentialRates({ ...noise, shift: 0 }, design, settings, histories, 100 + i);
      const ab = sequentialRates({ ...noise, shift: 0.05 }, design, settings, histories, 200 + i);
      rows.push([
        label,
        `${design.looks.join('/')}`,
        pct(aa.pass),
        pct(aa.fail),
        pct(aa.inconclusive),
        aa.meanBlocks.toFixed(1),
        String(aa.maxBlocks),
        minutes(aa.meanBlocks),
        pct(ab.fail),
        pct(ab.pass),
        ab.meanBlocks.toFixed(1),
        String(ab.maxBlocks),
      ]);
    });
  }
  console.log(
    `A/B gate (estimator ${settings.estimator}, alpha ${settings.alpha} over all looks, pass confidence ${settings.confidence}), ${histories} histories per cell; time at 2 arms × (6 s + 2 s) per block, the first look's baseline mode not counted\n`,
  );
  console.log(alignTable(rows));
  console.log('');
}

if (only === 'all' || only === 'history' || only === 'tau') {
  // The history gate: "sidecar" judged as its per-block ratio to "baseline", against stored runs.
  const rows = [['noise', 'reps', 'stored runs', 'A/A pass', 'A/A fail', 'A/A inconcl.', '+5% caught', '+5% passed']];
  const repetitions = only === 'tau' ? 5 : 3;
  const tau = only === 'tau' ? 0.02 : 0;
  const historyConfig = testConfig({ load: { rate: 1000, duration: '10s', repetitions } });
  /** One job's blocks: the ratio of the whole job moves by τ (the runner, the hour). */
  const jobBlocks = (random: () => number, noise: NoiseCase) => {
    const levels = drawBlocks(random, noise, repetitions);
    const job = Math.exp(tau * gaussian(random));
    return { base: levels.base, head: levels.head.map((v) => v * job), job };
  };
  const run = (random: () => number, noise: NoiseCase, id: string, day: number) => {
    const levels = jobBlocks(random, noise);
    return syntheticRun({
      config: historyConfig,
      id,
      startedAt: new Date(Date.UTC(2025, 0, 1 + day)).toISOString(),
      levels: { baseline: levels.base, sidecar: levels.head },
    });
  };
  const judge = (noise: NoiseCase, storedRuns: number, seed: number) => {
    const random = seededRandom(seed);
    const out = { pass: 0, fail: 0, inconclusive: 0 };
    for (let h = 0; h < histories; h++) {
      const reference = Array.from({ length: storedRuns }, (_, i) => run(random, { ...noise, shift: 0 }, `past-${i}`, i));
      const first = jobBlocks(random, noise);
      const candidate = { config: historyConfig, id: 'candidate', levels: { baseline: first.base, sidecar: first.head } };
      let analysis = analyzeRun(syntheticRun(candidate), { config: historyConfig, reference, resamples: 50 });
      if (analysis.modesToExtend.length > 0) {
        // The confirmation round runs in the same job: same job effect as round 1.
        const again = drawBlocks(random, noise, repetitions);
        again.head = again.head.map((v) => v * first.job);
        analysis = analyzeRun(syntheticRun({ ...candidate, round2: { baseline: again.base, sidecar: again.head } }), {
          config: historyConfig,
          reference,
          resamples: 50,
        });
      }
      const gate = analysis.gates.find((g) => g.kind === 'regression' && g.mode === 'sidecar');
      if (gate?.decision === 'fail') out.fail++;
      else if (gate?.decision === 'pass') out.pass++;
      else out.inconclusive++;
    }
    return { pass: out.pass / histories, fail: out.fail / histories, inconclusive: out.inconclusive / histories };
  };
  (only === 'tau' ? NOISE.slice(0, 1) : NOISE).forEach(([label, noise], i) => {
    for (const storedRuns of [1, 10]) {
      const aa = judge({ ...noise, shift: 0 }, storedRuns, 300 + i);
      const ab = judge({ ...noise, shift: 0.05 }, storedRuns, 400 + i);
      rows.push([
        label,
        String(repetitions),
        String(storedRuns),
        pct(aa.pass),
        pct(aa.fail),
        pct(aa.inconclusive),
        pct(ab.fail),
        pct(ab.pass),
      ]);
    }
  });
  console.log(
    `History gate (${repetitions} repetitions, per-block ratio to the baseline against stored runs, confirmation round included, job-to-job drift τ ${pct(tau)} of the ratio), ${histories} histories per cell\n`,
  );
  console.log(alignTable(rows));
}
