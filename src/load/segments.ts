// Splits one arrival schedule between N k6 instances with k6's own execution segments: instance i
// of N runs `--execution-segment i/N:(i+1)/N` of `--execution-segment-sequence 0,1/N,…,1`, and k6
// stripes every scenario (arrival rate, VUs, iterations) so the N parts add up to the whole
// schedule, however many instances there are. The sequence makes each instance stripe the same
// way, so no two instances start the same iteration. Pure.
import type { InstanceSlice } from './types.ts';

/** The k6 fraction for k/n: "0" and "1" at the ends, "k/n" between (k6 parses big.Rat text). */
function point(k: number, n: number): string {
  if (k === 0) return '0';
  if (k === n) return '1';
  return `${k}/${n}`;
}

export function executionSegments(n: number): InstanceSlice[] {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`executionSegments: expected a whole number ≥ 1, got ${n}`);
  const sequence = Array.from({ length: n + 1 }, (_, k) => point(k, n)).join(',');
  return Array.from({ length: n }, (_, index) => ({
    index,
    count: n,
    segment: `${point(index, n)}:${point(index + 1, n)}`,
    sequence,
  }));
}

/** The k6 arguments that give an instance its slice of the schedule. */
export function segmentArgs(slice: InstanceSlice): string[] {
  return ['--execution-segment', slice.segment, '--execution-segment-sequence', slice.sequence];
}
