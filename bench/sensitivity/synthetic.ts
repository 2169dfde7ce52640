// Benchmark (not a test): false-alarm and detection rates of the default regression gate on
// synthetic histories of known distribution, across the situations the docs discuss.
//   npx tsx bench/sensitivity/synthetic.ts [--histories 1000]
// Each history: N past runs (the reference) and a candidate run, each run B interleaved blocks
// of "baseline" and "sidecar"; repetition noise is lognormal with the given CV, and a job effect
// (the shared-runner lottery) scales every mode of a run alike. A candidate flagged in round 1
// gets a confirmation round from the same job, as the pipeline does. Figures feed
// docs/methodology-statistics.md; the acceptance tests assert the targets.
import { analyzeRun } from '../../src/analysis/analyze.ts';
import { alignTable } from '../../src/util/text-table.ts';
import { seededRandom, type Random } from '../../src/util/random.ts';
import { drawLevels, lognormalFactor, syntheticRun, testConfig } from '../../test/analysis/synthetic.ts';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const histories = Number(arg('histories', '1000'));

interface Case {
  cv: number;
  jobCv: number;
  referenceRuns: number;
  repetitions: number;
  shift: number;
}

function levels(random: Random, c: Case, job: number, shift: number) {
  return {
    baseline: drawLevels(random, c.repetitions, 1, c.cv, job),
    sidecar: drawLevels(random, c.repetitions, 1.3 * (1 + shift), c.cv, job),
  };
}

function rate(c: Case, seed: number): { any: number; sidecar: number; baseline: number; inconclusive: number } {
  const random = seededRandom(seed);
  const config = testConfig();
  let any = 0;
  let sidecar = 0;
  let baseline = 0;
  let inconclusive = 0;
  for (let h = 0; h < histories; h++) {
    const reference = Array.from({ length: c.referenceRuns }, (_, i) =>
      syntheticRun({
        config,
        id: `p${i}`,
        startedAt: new Date(Date.UTC(2025, 0, 1 + i)).toISOString(),
        levels: levels(random, c, lognormalFactor(random, c.jobCv), 0),
      }),
    );
    const job = lognormalFactor(random, c.jobCv);
    const first = levels(random, c, job, c.shift);
    let analysis = analyzeRun(syntheticRun({ config, id: 'cand', levels: first }), { config, reference, resamples: 50 });
    if (analysis.modesToExtend.length > 0) {
      analysis = analyzeRun(syntheticRun({ config, id: 'cand', levels: first, round2: levels(random, c, job, c.shift) }), {
        config,
        reference,
        resamples: 50,
      });
    }
    if (analysis.verdict === 'fail') any++;
    if (analysis.verdict === 'inconclusive') inconclusive++;
    if (analysis.gates.some((g) => g.mode === 'sidecar' && g.decision === 'fail')) sidecar++;
    if (analysis.gates.some((g) => g.mode === 'baseline' && g.decision === 'fail')) baseline++;
  }
  return { any: any / histories, sidecar: sidecar / histories, baseline: baseline / histories, inconclusive: inconclusive / histories };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const rows = [
  ['case', 'CV/rep', 'job CV', 'ref runs', 'reps', 'shift (sidecar)', 'run fails', 'sidecar gate', 'baseline gate', 'inconclusive'],
];
const cases: [string, Case][] = [
  ['A/A quiet', { cv: 0.03, jobCv: 0, referenceRuns: 10, repetitions: 5, shift: 0 }],
  ['A/A noisy reps', { cv: 0.1, jobCv: 0, referenceRuns: 10, repetitions: 5, shift: 0 }],
  ['A/A shared runner', { cv: 0.03, jobCv: 0.1, referenceRuns: 10, repetitions: 5, shift: 0 }],
  ['A/A shared, 1 ref run', { cv: 0.03, jobCv: 0.1, referenceRuns: 1, repetitions: 5, shift: 0 }],
  ['A/B +5%', { cv: 0.03, jobCv: 0, referenceRuns: 10, repetitions: 5, shift: 0.05 }],
  ['A/B +10%', { cv: 0.03, jobCv: 0, referenceRuns: 10, repetitions: 5, shift: 0.1 }],
  ['A/B +10% shared', { cv: 0.03, jobCv: 0.1, referenceRuns: 10, repetitions: 5, shift: 0.1 }],
  ['A/B +10%, 3 reps', { cv: 0.03, jobCv: 0, referenceRuns: 10, repetitions: 3, shift: 0.1 }],
  ['A/B +10%, 3 ref runs', { cv: 0.03, jobCv: 0, referenceRuns: 3, repetitions: 5, shift: 0.1 }],
  ['A/B +10%, 1 ref run', { cv: 0.03, jobCv: 0, referenceRuns: 1, repetitions: 5, shift: 0.1 }],
  ['A/B +20%, CV 10%', { cv: 0.1, jobCv: 0, referenceRuns: 10, repetitions: 5, shift: 0.2 }],
];
cases.forEach(([name, c], i) => {
  const r = rate(c, 1000 + i);
  rows.push([
    name,
    pct(c.cv),
    pct(c.jobCv),
    String(c.referenceRuns),
    String(c.repetitions),
    c.shift ? `+${pct(c.shift)}` : '—',
    pct(r.any),
    pct(r.sidecar),
    pct(r.baseline),
    pct(r.inconclusive),
  ]);
});
console.log(
  `Default regression gate on ${histories} synthetic histories per case (sidecar judged as its ratio to the baseline; baseline judged as is)\n`,
);
console.log(alignTable(rows));
