// The load generators bench/harness-fidelity compares, each run once against one target at one
// rate: latency as the tool itself reports it, and the CPU of its own processes from /proc
// (utime + stime, which stays meaningful on a shared machine where wall-clock latency does not).
//   vegeta     vegeta attack (open model), then vegeta report on its results
//   plain k6   the minimal constant-arrival-rate script below, 200 VUs, the same k6 binary
//   mesh-perf  `mesh-perf run` as a user runs it (platform endpoints, one repetition), from this
//              checkout's source or from another commit's dist/ (the previous engine)
//   engine     the product's k6 invocation run in-process by its own runner (LocalK6Runner), as
//              the ablation changes it
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LocalK6Runner } from '../../src/load/local-runner.ts';
import type { K6Invocation } from '../../src/load/types.ts';
import { cachedToolPath } from '../../src/tools/cache.ts';
import { commOf, descendants, PeakRss, processCpu, ReapedCpu } from '../support/proc.ts';

const VEGETA = cachedToolPath('vegeta', '12.13.0');
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** One run of one tool. Latency in ms; CPU in seconds. */
export interface Row {
  achieved: number;
  /** k6's dropped iterations; vegeta has none to report. */
  dropped: number | undefined;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Requests the generator sent, warm-up included: what its CPU is divided by. */
  sent: number;
  /** The load generator's process: k6, or vegeta attack. */
  generatorCpuS: number;
  /** mesh-perf's own (Node) process while its k6 ran; mesh-perf rows only. */
  ownCpuS?: number;
  /** k6's peak resident memory (MB): its VUs' JS heaps and what Go's collector marks each cycle. */
  k6PeakRssMb?: number;
  /** A pacer's arrivals sent more than 1 ms after their intended time (stock-trial.ts, the extension). */
  late?: number;
  /** A pacer's largest delay of a send behind its intended time, ms. */
  lagMaxMs?: number;
}

/** The k6 process among a process's descendants (mesh-perf's, or this bench's own). */
const k6Below = (pid: number) => () => descendants(pid).find((child) => commOf(child) === 'k6');

export const PLAIN_K6 = `import http from 'k6/http';
export const options = { discardResponseBodies: true, scenarios: { s: {
  executor: 'constant-arrival-rate', rate: Number(__ENV.RATE), timeUnit: '1s',
  duration: __ENV.DURATION, preAllocatedVUs: 200 } } };
export default function () { http.get(__ENV.URL); }
`;

function exited(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? 1));
  });
}

async function inTempDir<T>(prefix: string, work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function vegeta(url: string, rate: number, seconds: number): Promise<Row> {
  // The attack writes its results to a file and vegeta report reads them once it has exited, so
  // the CPU counted is the attacker's alone.
  return inTempDir('vegeta-', async (dir) => {
    const cpu = new ReapedCpu();
    const attack = spawn(
      VEGETA,
      ['attack', `-rate=${rate}/s`, `-duration=${seconds}s`, '-max-workers=2000', '-keepalive=true', `-output=${join(dir, 'results.bin')}`],
      { stdio: ['pipe', 'ignore', 'inherit'] },
    );
    attack.stdin!.end(`GET ${url}\n`);
    await exited(attack);
    const generatorCpuS = cpu.seconds();
    const report = spawn(VEGETA, ['report', '-type=json', join(dir, 'results.bin')], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    report.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    await exited(report);
    const r = JSON.parse(out) as { rate: number; latencies: Record<string, number>; requests: number };
    const ms = (ns: number) => ns / 1e6;
    return {
      achieved: r.rate,
      dropped: undefined,
      p50: ms(r.latencies['50th']!),
      p90: ms(r.latencies['90th']!),
      p99: ms(r.latencies['99th']!),
      max: ms(r.latencies.max!),
      sent: r.requests,
      generatorCpuS,
    };
  });
}

export function plainK6(k6: string, url: string, rate: number, seconds: number): Promise<Row> {
  return k6Script(k6, { script: PLAIN_K6 }, url, rate, seconds);
}

/**
 * A stock-k6 script the bench runs as it runs plain k6 (RATE, DURATION, DURATION_S and URL in
 * __ENV, its summary exported): plain k6 itself, or a variant of it (stock-trial.ts), with an
 * environment of its own (GOGC, GOMEMLIMIT) and extra k6 arguments.
 */
export interface K6Script {
  script: string;
  env?: Record<string, string>;
  args?: string[];
}

export function k6Script(k6: string, variant: K6Script, url: string, rate: number, seconds: number): Promise<Row> {
  return inTempDir('plain-k6-', async (dir) => {
    await writeFile(join(dir, 'plain.js'), variant.script);
    const cpu = new ReapedCpu();
    const args = ['run', '--quiet', '--no-color', '--summary-trend-stats', 'med,p(90),p(99),max,count', ...(variant.args ?? [])];
    args.push('--summary-export', join(dir, 'summary.json'), '-e', `RATE=${rate}`, '-e', `DURATION=${seconds}s`);
    args.push('-e', `DURATION_S=${seconds}`, '-e', `URL=${url}`);
    const child = spawn(k6, [...args, join(dir, 'plain.js')], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, K6_NO_USAGE_REPORT: 'true', ...variant.env },
    });
    const rss = new PeakRss(() => child.pid);
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-2000)));
    const code = await exited(child);
    const k6PeakRssMb = rss.stop();
    if (code !== 0) throw new Error(`k6 (${variant.script.split('\n')[0]}) failed:\n${stderr}`);
    const generatorCpuS = cpu.seconds();
    const summary = JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8')) as { metrics: Record<string, Record<string, number>> };
    const d = summary.metrics.http_req_duration!;
    const sent = summary.metrics.http_reqs!.count!;
    return {
      achieved: sent / seconds,
      dropped: summary.metrics.dropped_iterations?.count ?? 0,
      ...(summary.metrics.late_sends ? { late: summary.metrics.late_sends.count ?? 0 } : {}),
      ...(summary.metrics.send_lag_max ? { lagMaxMs: summary.metrics.send_lag_max.value ?? 0 } : {}),
      p50: d.med!,
      p90: d['p(90)']!,
      p99: d['p(99)']!,
      max: d.max!,
      sent,
      generatorCpuS,
      k6PeakRssMb,
    };
  });
}

/** How to start a mesh-perf CLI: this checkout's source, or another commit's dist/. */
export interface MeshPerfCli {
  label: string;
  argv: string[];
  /** Extra environment for the CLI (and so its k6, e.g. GOGC: load/k6-process.ts passes it on). */
  env?: Record<string, string>;
  cleanup: () => Promise<void>;
}

export function currentCli(): MeshPerfCli {
  const tsx = fileURLToPath(import.meta.resolve('tsx'));
  return { label: 'mesh-perf', argv: [process.execPath, '--import', tsx, join(ROOT, 'src/cli.ts')], cleanup: async () => {} };
}

/** mesh-perf as of a commit: its committed dist/ and k6/ scripts, extracted from git. */
export async function cliAt(ref: string): Promise<MeshPerfCli> {
  const commit = execFileSync('git', ['-C', ROOT, 'rev-parse', '--short', `${ref}^{commit}`], { encoding: 'utf8' }).trim();
  const dir = await mkdtemp(join(tmpdir(), `mesh-perf-${commit}-`));
  const tar = execFileSync('git', ['-C', ROOT, 'archive', '--format=tar', commit, 'dist', 'k6', 'package.json'], { maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  return {
    label: `mesh-perf ${commit}`,
    argv: [process.execPath, join(dir, 'dist/cli.js')],
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

interface RepetitionJson {
  achievedRps: number;
  droppedIterations: number;
  requests: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number } | null;
  lateSends?: { count: number; maxLagMs: number };
}

/**
 * One `mesh-perf run` of one repetition with a warm-up. k6 runs as the CLI's child: its CPU is
 * what the kernel adds to the CLI's cutime when the CLI reaps it (read before k6 starts and
 * after it has gone), and the CLI's own CPU is counted over the same span. The requests k6 sent
 * are the measured ones (results.json) and the warm-up's, rate × warm-up (k6's arrival-rate
 * schedule is exact; a warm-up that dropped iterations would make this slightly high).
 */
export function meshPerfCli(cli: MeshPerfCli, url: string, rate: number, seconds: number, warmupS: number): Promise<Row> {
  return inTempDir('mesh-perf-bench-', async (dir) => {
    const config = `platform: endpoints
modes: [{ name: bench, url: ${JSON.stringify(url)} }]
load: { rate: ${rate}, duration: ${seconds}s, warmup: ${warmupS}s, repetitions: 1 }
`;
    await writeFile(join(dir, 'mesh-perf.yaml'), config);
    const child = spawn(cli.argv[0]!, [...cli.argv.slice(1), 'run', '--out', join(dir, 'out')], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, COLUMNS: '100', ...cli.env },
    });
    let output = '';
    const keep = (c: Buffer) => (output = (output + c.toString()).slice(-4000));
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const watch = new K6ChildWatch(child.pid!);
    const rss = new PeakRss(k6Below(child.pid!));
    const code = await exited(child);
    const spans = watch.stop();
    const k6PeakRssMb = rss.stop();
    const results = await readFile(join(dir, 'out/results.json'), 'utf8').catch(() => undefined);
    if (!results) throw new Error(`${cli.label} run exited ${code} without results.json:\n${output}`);
    const repetition = (JSON.parse(results) as { modes: { repetitions: RepetitionJson[] }[] }).modes[0]!.repetitions[0]!;
    const l = repetition.latencyMs;
    if (!l || !spans) throw new Error(`${cli.label} measured no successful request, or its k6 was never seen:\n${output}`);
    return {
      achieved: repetition.achievedRps,
      dropped: repetition.droppedIterations,
      p50: l.p50,
      p90: l.p90,
      p99: l.p99,
      max: l.max,
      sent: repetition.requests + Math.round(rate * warmupS),
      generatorCpuS: spans.k6,
      ownCpuS: spans.own,
      k6PeakRssMb,
      ...(repetition.lateSends ? { late: repetition.lateSends.count, lagMaxMs: repetition.lateSends.maxLagMs } : {}),
    };
  });
}

/**
 * Samples a CLI process every 50 ms: its own CPU, its reaped children's, and its k6 child's (the
 * one that ran the load: the CLI also runs `k6 version`, briefly). k6's CPU is the growth of the
 * CLI's reaped-children CPU from the last sample before that k6 appeared to the first after it
 * was gone (exact: the kernel adds a child's whole CPU when it is reaped); when the CLI exits too
 * soon after k6 for such a sample, the last CPU /proc showed for k6 itself (a zombie's is final).
 * The CLI's own CPU is counted over the same span.
 */
class K6ChildWatch {
  private readonly samples: { own: number; reaped: number; k6?: { pid: number; own: number } }[] = [];
  private readonly timer: NodeJS.Timeout;
  private k6Pid: number | undefined;
  constructor(private readonly pid: number) {
    this.timer = setInterval(() => this.sample(), 50);
    this.sample();
  }
  private sample(): void {
    const cli = processCpu(this.pid);
    if (!cli) return;
    let k6 = this.k6Pid === undefined ? undefined : processCpu(this.k6Pid);
    if (!k6) {
      // Looked for only while no k6 child is alive (or a zombie): the tree walk reads a file per thread.
      this.k6Pid = descendants(this.pid).find((child) => commOf(child) === 'k6');
      k6 = this.k6Pid === undefined ? undefined : processCpu(this.k6Pid);
    }
    this.samples.push({ ...cli, ...(k6 && this.k6Pid !== undefined ? { k6: { pid: this.k6Pid, own: k6.own } } : {}) });
  }
  stop(): { k6: number; own: number } | undefined {
    clearInterval(this.timer);
    const seen = new Map<number, number>();
    for (const s of this.samples) if (s.k6) seen.set(s.k6.pid, Math.max(seen.get(s.k6.pid) ?? 0, s.k6.own));
    const load = [...seen.entries()].sort((a, b) => b[1] - a[1])[0];
    if (!load) return undefined;
    const first = this.samples.findIndex((s) => s.k6?.pid === load[0]);
    let last = first;
    this.samples.forEach((s, i) => {
      if (s.k6?.pid === load[0]) last = i;
    });
    if (first < 1) return undefined;
    const before = this.samples[first - 1]!;
    const after = this.samples[last + 1];
    const end = after ?? this.samples[last]!;
    return { k6: after ? after.reaped - before.reaped : load[1], own: end.own - before.own };
  }
}

/** The product's own k6 invocation (as an ablation variant changed it) through LocalK6Runner. */
export async function engineInProcess(k6: string, invocation: K6Invocation): Promise<{ row: Row; summary: string }> {
  const cpu = new ReapedCpu();
  const rss = new PeakRss(k6Below(process.pid));
  let outcome;
  try {
    outcome = await new LocalK6Runner(k6).run(invocation, () => {}, new AbortController().signal);
  } finally {
    rss.stop();
  }
  const k6PeakRssMb = rss.stop();
  const generatorCpuS = cpu.seconds();
  if (!outcome.summary) throw new Error(`the engine's k6 wrote no summary: ${outcome.stderrTail}`);
  const metrics = (JSON.parse(outcome.summary) as { metrics: Record<string, { values: Record<string, number> }> }).metrics;
  // Every variant keeps these whole-run built-ins; the measured scenario's sub-metrics may be gone.
  // A variant without the measured scenario's sub-metrics has only whole-run figures (warm-up
  // included): its latency is shown, its achieved rate is not (NaN).
  const measured = metrics['http_req_duration{scenario:measure}']?.values;
  const d = (measured ?? metrics.http_req_duration!.values)!;
  const sent = metrics.http_reqs!.values.count!;
  return {
    row: {
      achieved: measured ? measured.count! / (invocation.expectedSeconds - warmupSeconds(invocation)) : Number.NaN,
      dropped: metrics['dropped_iterations']?.values.count ?? 0,
      p50: d.med!,
      p90: d['p(90)']!,
      p99: d['p(99)']!,
      max: d.max!,
      sent,
      generatorCpuS,
      k6PeakRssMb,
    },
    summary: outcome.summary,
  };
}

function warmupSeconds(invocation: K6Invocation): number {
  const params = JSON.parse(invocation.env.MESH_PERF_PARAMS ?? '{}') as { warmupMs?: number };
  return (params.warmupMs ?? 0) / 1000;
}
