// Benchmark (not a test): how quickly and how cleanly are steps in a daily series found?
//   npx tsx bench/change-points/run.ts [--series 10] [--length 100] [--step-at 60] [--seed 1]
// Synthetic daily series (lognormal per-run noise 2.5% or 5%, 2% outlier runs 25–50% slow, and
// series with a slow drift of +5% per 100 runs) with a step of +3%, +5% or +10% at run 60.
// Each series is scanned the way daily runs see it: after every new run the whole prefix is
// analysed, until a change point within ±2 runs of the true step is reported (delay = runs
// after the step). False change points and the size error are counted on the full series.
// Beside mesh-perf's detector, in the same run and on the same series: Apache Otava (PyPI
// apache-otava, its default settings), installed into a virtual environment under
// ~/.cache/mesh-perf/otava on first use. The full form (--series 200) takes about 40 min here,
// almost all of it Otava's scans; the default (10 per case) about 2 min.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { detectChangePoints } from '../../src/analysis/change-points/detect.ts';
import { median, quantile } from '../../src/analysis/descriptive.ts';
import { seededRandom, type Random } from '../../src/util/random.ts';
import { alignTable } from '../../src/util/text-table.ts';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const perCase = Number(arg('series', '10'));
const length = Number(arg('length', '100'));
const stepAt = Number(arg('step-at', '60'));
const seed = Number(arg('seed', '1'));
const TOLERANCE = 2;
const FIRST_LOOK = 1;
const OUTLIER_SHARE = 0.02;

interface Case {
  name: string;
  step?: number;
  noise: number;
  /** Relative rise over 100 runs. */
  drift: number;
}

const CASES: Case[] = [
  ...[0.025, 0.05].flatMap((noise) =>
    [0.03, 0.05, 0.1].map((step) => ({ name: `+${step * 100}% step, noise ${noise * 100}%`, step, noise, drift: 0 })),
  ),
  { name: 'no step, noise 2.5%', noise: 0.025, drift: 0 },
  { name: 'no step, noise 5%', noise: 0.05, drift: 0 },
  { name: 'drift +5%/100 runs, noise 2.5%', noise: 0.025, drift: 0.05 },
  { name: 'drift +5%/100 runs, noise 5%', noise: 0.05, drift: 0.05 },
];

function gaussian(random: Random): number {
  let u = 0;
  while (u === 0) u = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

function makeSeries(c: Case, random: Random): number[] {
  const sigma = Math.sqrt(Math.log(1 + c.noise ** 2));
  return Array.from({ length }, (_, i) => {
    const level = 10 * (1 + (c.drift * i) / 100) * (c.step !== undefined && i >= stepAt ? 1 + c.step : 1);
    const outlier = random() < OUTLIER_SHARE ? 1.25 + 0.25 * random() : 1;
    return level * Math.exp(sigma * gaussian(random)) * outlier;
  });
}

interface Outcome {
  delay: number | null;
  final: [number, number][];
}

function ours(values: number[], step: number | undefined): Outcome {
  const points = (v: number[]): [number, number][] => {
    const found = detectChangePoints(v);
    return found.ok ? found.changePoints.map((c) => [c.index, c.size]) : [];
  };
  let delay: number | null = null;
  if (step !== undefined) {
    for (let k = step + FIRST_LOOK; k <= values.length; k++) {
      if (points(values.slice(0, k)).some(([i]) => Math.abs(i - step) <= TOLERANCE)) {
        delay = k - step;
        break;
      }
    }
  }
  return { delay, final: points(values) };
}

function otavaPython(): string {
  const dir = join(homedir(), '.cache', 'mesh-perf', 'otava');
  const python = join(dir, 'venv', 'bin', 'python');
  if (!existsSync(python)) {
    mkdirSync(dir, { recursive: true });
    console.log(`installing apache-otava into ${dir}/venv ...`);
    const venv = spawnSync('python3', ['-m', 'venv', join(dir, 'venv')], { stdio: 'inherit' });
    if (venv.status !== 0) throw new Error('python3 -m venv failed; install python3-venv');
  }
  const probe = spawnSync(python, ['-c', 'import otava.analysis'], { stdio: 'ignore' });
  if (probe.status !== 0) {
    const pip = spawnSync(join(dir, 'venv', 'bin', 'pip'), ['install', '-q', 'apache-otava'], { stdio: 'inherit' });
    if (pip.status !== 0) throw new Error('pip install apache-otava failed');
  }
  return python;
}

function otava(python: string, series: { values: number[]; stepAt?: number }[]): Outcome[] {
  const driver = join(import.meta.dirname, 'otava_driver.py');
  const run = spawnSync(python, [driver], {
    input: JSON.stringify({ series, tolerance: TOLERANCE, firstLook: FIRST_LOOK }),
    maxBuffer: 1 << 28,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`otava driver failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as Outcome[];
}

interface Tally {
  detected: number;
  delays: number[];
  sizeErrors: number[];
  falsePoints: number;
  runs: number;
}

function tally(c: Case, outcomes: Outcome[]): Tally {
  const t: Tally = { detected: 0, delays: [], sizeErrors: [], falsePoints: 0, runs: 0 };
  for (const o of outcomes) {
    t.runs += length;
    if (o.delay !== null) {
      t.detected++;
      t.delays.push(o.delay);
    }
    for (const [index, size] of o.final) {
      if (c.step !== undefined && Math.abs(index - stepAt) <= TOLERANCE) t.sizeErrors.push(Math.abs(size - c.step));
      else t.falsePoints++;
    }
  }
  return t;
}

const pct = (v: number) => `${(v * 100).toFixed(0)}%`;
const delays = (t: Tally, c: Case) =>
  c.step === undefined ? '–' : t.delays.length ? `${median(t.delays)} / ${quantile(t.delays, 0.9).toFixed(0)}` : 'never';
const sizeError = (t: Tally, c: Case) =>
  c.step === undefined || !t.sizeErrors.length ? '–' : `${(median(t.sizeErrors) * 100).toFixed(1)} pt`;
const falseRate = (t: Tally) => ((1000 * t.falsePoints) / t.runs).toFixed(1);

const python = otavaPython();
const random = seededRandom(seed);
const rows: string[][] = [];
let oursMs = 0;
let otavaMs = 0;
for (const c of CASES) {
  const series = Array.from({ length: perCase }, () => makeSeries(c, random));
  let t0 = performance.now();
  const mine = tally(
    c,
    series.map((v) => ours(v, c.step === undefined ? undefined : stepAt)),
  );
  oursMs += performance.now() - t0;
  t0 = performance.now();
  const theirs = tally(
    c,
    otava(
      python,
      series.map((values) => (c.step === undefined ? { values } : { values, stepAt })),
    ),
  );
  otavaMs += performance.now() - t0;
  rows.push([
    c.name,
    c.step === undefined ? '–' : `${pct(mine.detected / perCase)} | ${pct(theirs.detected / perCase)}`,
    `${delays(mine, c)} | ${delays(theirs, c)}`,
    `${falseRate(mine)} | ${falseRate(theirs)}`,
    `${sizeError(mine, c)} | ${sizeError(theirs, c)}`,
  ]);
}

console.log(
  `${perCase} series per case, ${length} runs each${CASES.some((c) => c.step) ? `, step at run ${stepAt}` : ''}, ${pct(OUTLIER_SHARE)} outlier runs; seed ${seed}`,
);
console.log('each cell: mesh-perf | Apache Otava 0.8 (defaults)\n');
console.log(
  alignTable(
    [['series', 'step found', 'delay, runs (median / p90)', 'false change points per 1,000 runs', 'size error (median)'], ...rows],
    (column) => column === 0,
  ),
);
console.log(
  `\ntime: mesh-perf ${(oursMs / 1000).toFixed(1)} s, Otava ${(otavaMs / 1000).toFixed(1)} s (ratio ${(otavaMs / oursMs).toFixed(1)}×)`,
);
