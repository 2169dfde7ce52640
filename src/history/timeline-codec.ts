// The per-second timelines of a stored run, packed: they are four fifths of a run and drawn only,
// never analysed. Each latency is kept to 0.5% (a step of a log scale: a one-second p99 rests on
// a handful of requests, so its own sampling error is several times that); times (to the
// millisecond), request and failure counts exactly. Each column becomes small integers (a value's
// distance from its timeline's median; times as the change of their step), coded by an adaptive
// range coder (range-coder.ts): within a few percent of their entropy, a fifth less than format 1
// (the same integers as varints, left to gzip), which is still read. Pure; stored-run.ts wraps the
// bytes in gzip (which finds nothing more in format 2; kept so one file format reads both).
import type { TimelinePoint } from '../results/types.ts';
import { IntegerModel, RangeDecoder, RangeEncoder, unzigzag, zigzag } from './range-coder.ts';

/** Format 1: varints (read only); format 2: range coded (written). */
const FORMAT = 2;
const VARINT_FORMAT = 1;
/** The step between two points a timeline is expected to have (a second), so a regular one codes to nothing. */
const EXPECTED_STEP_MS = 1000;
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
  const header = new Bytes();
  header.uint(FORMAT);
  header.uint(timelines.length);
  for (const points of timelines) header.uint(points.length);
  const out = new RangeEncoder();
  const steps = new IntegerModel();
  for (const points of timelines) {
    let previous = 0;
    let step = EXPECTED_STEP_MS;
    for (const p of points) {
      const ms = Math.round(p.t * 1000);
      out.int(steps, ms - previous - step);
      step = ms - previous;
      previous = ms;
    }
  }
  for (const field of ['requests', 'failures'] as const) {
    const refs = new IntegerModel();
    const values = new IntegerModel();
    let previousRef = 0;
    for (const points of timelines) {
      const column = points.map((p) => p[field]);
      const ref = column.length > 0 ? medianInt(column) : 0;
      out.int(refs, ref - previousRef);
      previousRef = ref;
      for (const v of column) out.int(values, v - ref);
    }
  }
  for (const field of LATENCIES) {
    const refs = new IntegerModel();
    const values = new IntegerModel();
    let previousRef = 0;
    for (const points of timelines) {
      const codes = points.map((p) => (p[field] > 0 ? toCode(p[field]) : null));
      const present = codes.filter((c): c is number => c !== null);
      const ref = present.length > 0 ? medianInt(present) : 0;
      out.int(refs, ref - previousRef);
      previousRef = ref;
      for (const c of codes) out.uint(values, c === null ? 0 : zigzag(c - ref) + 1);
    }
  }
  const head = header.bytes();
  const body = out.finish();
  const bytes = new Uint8Array(head.length + body.length);
  bytes.set(head);
  bytes.set(body, head.length);
  return bytes;
}

export function unpackTimelines(bytes: Uint8Array): TimelinePoint[][] {
  const input = new Reader(bytes);
  const format = input.uint();
  if (format !== FORMAT && format !== VARINT_FORMAT)
    throw new Error(`timeline format ${format} is not one this mesh-perf reads (${VARINT_FORMAT} or ${FORMAT})`);
  const lengths = Array.from({ length: input.uint() }, () => input.uint());
  const timelines: TimelinePoint[][] = lengths.map((n) =>
    Array.from({ length: n }, () => ({ t: 0, requests: 0, failures: 0, p50: 0, p90: 0, p99: 0, max: 0 })),
  );
  if (format === VARINT_FORMAT) readVarints(input, timelines);
  else readRangeCoded(new RangeDecoder(bytes, input.position()), timelines);
  return timelines;
}

function readRangeCoded(input: RangeDecoder, timelines: TimelinePoint[][]): void {
  const steps = new IntegerModel();
  for (const points of timelines) {
    let ms = 0;
    let step = EXPECTED_STEP_MS;
    for (const p of points) {
      step += input.int(steps);
      ms += step;
      p.t = ms / 1000;
    }
  }
  for (const field of ['requests', 'failures'] as const) {
    const refs = new IntegerModel();
    const values = new IntegerModel();
    let ref = 0;
    for (const points of timelines) {
      ref += input.int(refs);
      for (const p of points) p[field] = ref + input.int(values);
    }
  }
  for (const field of LATENCIES) {
    const refs = new IntegerModel();
    const values = new IntegerModel();
    let ref = 0;
    for (const points of timelines) {
      ref += input.int(refs);
      for (const p of points) {
        const v = input.uint(values);
        p[field] = v === 0 ? 0 : fromCode(ref + unzigzag(v - 1));
      }
    }
  }
  if (!input.done()) throw new Error('bytes left over after the timelines');
}

/** Format 1 (mesh-perf before range coding): columns of varints. */
function readVarints(input: Reader, timelines: TimelinePoint[][]): void {
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
}

/** Format 1's writer, kept so tests can make the files mesh-perf stored before format 2. */
export function packTimelinesAsVarints(timelines: readonly (readonly TimelinePoint[])[]): Uint8Array {
  const out = new Bytes();
  out.uint(VARINT_FORMAT);
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

  position(): number {
    return this.at;
  }

  left(): number {
    return this.data.length - this.at;
  }
}
