// The history gate on the A/B bench's noise (bench/ab-gate/run.ts --only history|tau): "sidecar"
// judged as its per-block ratio to "baseline" against stored runs, confirmation round included,
// as a PR without arms is judged. `tau`: the ratio of a whole job moves by τ 2 % (the runner, the
// hour), 5 repetitions; `history`: no job-to-job drift, 3 repetitions, its best case.
// The product's own analyzeRun decides; the noise is noise.ts's. Nothing here is a measurement.
import { analyzeRun } from '../../src/analysis/analyze.ts';
import { seededRandom, type Random } from '../../src/util/random.ts';
import { alignTable } from '../../src/util/text-table.ts';
import { gaussian, syntheticRun, testConfig } from '../../test/analysis/synthetic.ts';
import { drawRun, QUIET } from './noise.ts';

interface Noise {
  r: number;
  outliers: number;
  shift: number;
}

const NOISE: [string, Omit<Noise, 'shift'>][] = [
  ['r 3.5%', { r: 0.035, outliers: 0 }],
  ['r 3.5% + 5% outlier blocks', { r: 0.035, outliers: 0.05 }],
  ['r 5%', { r: 0.05, outliers: 0 }],
  ['r 5% + 5% outlier blocks', { r: 0.05, outliers: 0.05 }],
];

/** Per-block p50 of the baseline ("base") and the sidecar ("head") for `blocks` blocks. */
function drawBlocks(random: Random, noise: Noise, blocks: number): { base: number[]; head: number[] } {
  const [arms] = drawRun(random, { ...QUIET, r: noise.r, outliers: noise.outliers }, 1, blocks, [noise.shift]);
  return { base: arms!.base.map((b) => b.p50), head: arms!.head.map((h) => h.p50) };
}

export function historyGateTable(mode: 'history' | 'tau', histories: number): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const rows = [['noise', 'reps', 'stored runs', 'A/A pass', 'A/A fail', 'A/A inconcl.', '+5% caught', '+5% passed']];
  const repetitions = mode === 'tau' ? 5 : 3;
  const tau = mode === 'tau' ? 0.02 : 0;
  const historyConfig = testConfig({ load: { rate: 1000, duration: '10s', repetitions } });
  /** One job's blocks: the ratio of the whole job moves by τ. */
  const jobBlocks = (random: Random, noise: Noise) => {
    const levels = drawBlocks(random, noise, repetitions);
    const job = Math.exp(tau * gaussian(random));
    return { base: levels.base, head: levels.head.map((v) => v * job), job };
  };
  const run = (random: Random, noise: Noise, id: string, day: number) => {
    const levels = jobBlocks(random, noise);
    return syntheticRun({
      config: historyConfig,
      id,
      startedAt: new Date(Date.UTC(2025, 0, 1 + day)).toISOString(),
      levels: { baseline: levels.base, sidecar: levels.head },
    });
  };
  const judge = (noise: Noise, storedRuns: number, seed: number) => {
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
  (mode === 'tau' ? NOISE.slice(0, 1) : NOISE).forEach(([label, noise], i) => {
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
  return `History gate (${repetitions} repetitions, per-block ratio to the baseline against stored runs, confirmation round included, job-to-job drift τ ${pct(tau)} of the ratio), ${histories} histories per cell\n\n${alignTable(rows)}`;
}
