// The per-second timelines of a stored run, packed: they are four fifths of a run and drawn only,
// never analysed. Each latency is kept to 0.5% (a step of a log scale: a one-second p99 rests on
// a handful of requests, so its own sampling error is several times that); times (to the
// millisecond), request and failure counts exactly. Columns of small integers (a value's distance
// from its column's median, zigzag varints) compress to about a third of the same numbers as text.
// Pure; stored-run.ts compresses the bytes.
import type { TimelinePoint } from '../results/types.ts';

const FORMAT = 1;
/** Latencies are stored as k with value = STEP^k. */
const STEP = 1.005;
const LOG_STEP = Math.log(STEP);
const LATENCIES = ['p50', 'p90', 'p99', 'max'] as const;

/** The latency a timeline keeps for `value` ms: the nearest step, read as 4 significant digits. */
export function storedLatency(value: number): number {
  return value > 0 && Number.isFinite(value) ? fromCode(toCode(value)) : 0;
}

function toCode(value: number): number {
  return Math.round(Math.log(value) / LOG_STEP);
}

function fromCode(code: number): number {
  return Number(Math.exp(code * LOG_STEP).toPrecision(4));
}

/** Timelines as stored: latencies on the 0.5% steps, the rest as they were. */
export function storedTimeline(points: readonly TimelinePoint[]): TimelinePoint[] {
  return points.map((p) => ({
    t: p.t,
    requests: p.requests,
    failures: p.failures,
    p50: storedLatency(p.p50),
    p90: storedLatency(p.p90),
    p99: storedLatency(p.p99),
    max: storedLatency(p.max),
  }));
}

/** Whether packTimelines can hold these points exactly (after storedTimeline): whole ms, whole counts. */
export function packable(timelines: readonly (readonly TimelinePoint[])[]): boolean {
  return timelines.every((points) =>
    points.every(
      (p) =>
        Number.isSafeInteger(Math.round(p.t * 1000)) &&
        Math.round(p.t * 1000) / 1000 === p.t &&
        Number.isSafeInteger(p.requests) &&
        Number.isSafeInteger(p.failures) &&
        LATENCIES.every((k) => p[k] === 0 || (p[k] > 0 && Number.isFinite(p[k]))),
    ),
  );
}

export function packTimelines(timelines: readonly (readonly TimelinePoint[])[]): Uint8Array {
  const out = new Bytes();
  out.uint(FORMAT);
  out.uint(timelines.length);
  for (const points of timelines) out.uint(points.length);
  for (const points of timelines) {
    let previous = 0;
    for (const p of points) {
      const ms = Math.round(p.t * 1000);
      out.int(ms - previous);
      previous = ms;
    }
  }
  for (const field of ['requests', 'failures'] as const) {
    for (const points of timelines)
      centred(
        out,
        points.map((p) => p[field]),
      );
  }
  for (const field of LATENCIES) {
    for (const points of timelines) {
      const codes = points.map((p) => (p[field] > 0 ? toCode(p[field]) : null));
      const present = codes.filter((c): c is number => c !== null);
      const ref = present.length > 0 ? medianInt(present) : 0;
      out.int(ref);
      for (const c of codes) out.uint(c === null ? 0 : zigzag(c - ref) + 1);
    }
  }
  return out.bytes();
}

export function unpackTimelines(bytes: Uint8Array): TimelinePoint[][] {
  const input = new Reader(bytes);
  const format = input.uint();
  if (format !== FORMAT) throw new Error(`timeline format ${format} is not one this mesh-perf reads (${FORMAT})`);
  const lengths = Array.from({ length: input.uint() }, () => input.uint());
  const timelines: TimelinePoint[][] = lengths.map((n) =>
    Array.from({ length: n }, () => ({ t: 0, requests: 0, failures: 0, p50: 0, p90: 0, p99: 0, max: 0 })),
  );
  for (const points of timelines) {
    let ms = 0;
    for (const p of points) {
      ms += input.int();
      p.t = ms / 1000;
    }
  }
  for (const field of ['requests', 'failures'] as const) {
    for (const points of timelines) {
      const ref = input.int();
      for (const p of points) p[field] = ref + input.int();
    }
  }
  for (const field of LATENCIES) {
    for (const points of timelines) {
      const ref = input.int();
      for (const p of points) {
        const v = input.uint();
        p[field] = v === 0 ? 0 : fromCode(ref + unzigzag(v - 1));
      }
    }
  }
  if (!input.done()) throw new Error(`${input.left()} bytes left over after the timelines`);
  return timelines;
}

/** A column as its median and each value's distance from it. */
function centred(out: Bytes, values: number[]): void {
  const ref = values.length > 0 ? medianInt(values) : 0;
  out.int(ref);
  for (const v of values) out.int(v - ref);
}

function medianInt(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

function zigzag(n: number): number {
  return n >= 0 ? n * 2 : -n * 2 - 1;
}

function unzigzag(n: number): number {
  return n % 2 === 0 ? n / 2 : -(n + 1) / 2;
}

/** Unsigned LEB128 varints (up to 2^53), growing as needed. */
class Bytes {
  private buffer = new Uint8Array(1024);
  private length = 0;

  uint(value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`cannot pack ${value}`);
    let v = value;
    while (v >= 0x80) {
      this.push((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    this.push(v);
  }

  int(value: number): void {
    this.uint(zigzag(value));
  }

  private push(byte: number): void {
    if (this.length === this.buffer.length) {
      const grown = new Uint8Array(this.buffer.length * 2);
      grown.set(this.buffer);
      this.buffer = grown;
    }
    this.buffer[this.length++] = byte;
  }

  bytes(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }
}

class Reader {
  private at = 0;
  constructor(private readonly data: Uint8Array) {}

  uint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (this.at >= this.data.length) throw new Error('the timelines end early');
      const byte = this.data[this.at++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
      if (scale > 2 ** 56) throw new Error('a number in the timelines is too long');
    }
  }

  int(): number {
    return unzigzag(this.uint());
  }

  done(): boolean {
    return this.at === this.data.length;
  }

  left(): number {
    return this.data.length - this.at;
  }
}
