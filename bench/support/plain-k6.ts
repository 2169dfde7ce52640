// Plain k6 as the reference that measures an injected change: the 6-line constant-arrival-rate
// script of bench/harness-fidelity against echo servers started and warmed exactly as the local
// platform does it (src/platform/processes.ts), base and head alternately, a fresh pair of
// processes for every pair of measurements. Shared by bench/ab-local and bench/confirm.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, warmServer } from '../../src/platform/processes.ts';

export const PLAIN_K6 = `import http from 'k6/http';
export const options = { discardResponseBodies: true, scenarios: { s: {
  executor: 'constant-arrival-rate', rate: Number(__ENV.RATE), timeUnit: '1s',
  duration: __ENV.DURATION, preAllocatedVUs: 50 } } };
export default function () { http.get(__ENV.URL); }
`;

export interface PlainLoad {
  rate: number;
  durationS: number;
  warmupS: number;
}

/** Plain k6's p50 of one URL for `load.durationS`, after a warm-up as long as the pipeline's. */
export async function plainP50(k6: string, dir: string, url: string, load: PlainLoad): Promise<number> {
  const summaryPath = join(dir, 'summary.json');
  const run = (seconds: number, summary: boolean) =>
    new Promise<void>((resolve, reject) => {
      const args = ['run', '--quiet', '--no-color', '--address', '', '--summary-trend-stats', 'med'];
      if (summary) args.push('--summary-export', summaryPath);
      args.push('-e', `RATE=${load.rate}`, '-e', `DURATION=${seconds}s`, '-e', `URL=${url}`, join(dir, 'plain.js'));
      const child = spawn(k6, args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, K6_NO_USAGE_REPORT: 'true' } });
      child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`k6 exited ${code}`))));
    });
  if (load.warmupS > 0) await run(load.warmupS, false);
  await run(load.durationS, true);
  const summary = JSON.parse(await readFile(summaryPath, 'utf8')) as { metrics: Record<string, Record<string, number>> };
  return summary.metrics.http_req_duration!.med!;
}

/**
 * `count` pairs of plain-k6 p50s, base and head alternately, each pair against a fresh base and a
 * fresh head echo process started and warmed as the local platform does it: log(head ÷ base) per pair.
 */
export async function plainPairs(k6: string, baseDelayMs: number, extraMs: number, count: number, load: PlainLoad): Promise<number[]> {
  const dir = await mkdtemp(join(tmpdir(), 'plain-k6-'));
  try {
    await writeFile(join(dir, 'plain.js'), PLAIN_K6);
    const logs: number[] = [];
    for (let i = 0; i < count; i++) {
      const base = await startServer('echo', ['--delay-ms', String(baseDelayMs)], 'plain-k6 base echo');
      const head = await startServer('echo', ['--delay-ms', String(baseDelayMs + extraMs)], 'plain-k6 head echo');
      try {
        // Warmed as the local platform warms an arm's server of a block.
        const signal = new AbortController().signal;
        await Promise.all([warmServer(base.port, signal), warmServer(head.port, signal)]);
        const urls = [`http://127.0.0.1:${base.port}/`, `http://127.0.0.1:${head.port}/`];
        const headFirst = i % 2 === 1;
        const first = await plainP50(k6, dir, urls[headFirst ? 1 : 0]!, load);
        const second = await plainP50(k6, dir, urls[headFirst ? 0 : 1]!, load);
        logs.push(headFirst ? Math.log(first / second) : Math.log(second / first));
      } finally {
        await Promise.all([base.stop(), head.stop()]);
      }
    }
    return logs;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const middle = (xs: readonly number[]) => {
  const o = [...xs].sort((a, b) => a - b);
  const h = o.length / 2;
  return o.length % 2 === 1 ? o[Math.floor(h)]! : (o[h - 1]! + o[h]!) / 2;
};

/**
 * The change a set of plain-k6 pairs measured: the median pair's log ratio. On a shared machine a
 * pair now and then meets a stall (k6 warned of 250 ms latencies in calibration on a load of 13)
 * and one such pair moved a 40-pair mean by points; the median of symmetric noise is the mean's
 * centre and ignores those.
 */
export function pairsEffect(logs: readonly number[]): number {
  return Math.expm1(middle(logs));
}

/**
 * Standard error of a median of pairs' log ratios: 1.2533 σ ÷ √n, σ from the median absolute
 * deviation (1.4826 MAD), so that the pairs a stall hit do not widen it.
 */
export function medianSe(logs: readonly number[]): number {
  const centre = middle(logs);
  const sigma = 1.4826 * middle(logs.map((x) => Math.abs(x - centre)));
  return (1.2533 * sigma) / Math.sqrt(logs.length);
}
