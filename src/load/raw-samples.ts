// Raw samples of one k6 instance's measured scenario, read from k6's `--out csv` file. A group
// of instances is merged from these (exact percentiles of the union), never from per-instance
// percentiles. Pure: it reads chunks handed in (a file stream locally, a copied file from a pod).
//
// k6 1.4.2 writes one row per sample (internal/output/csv/output.go): metric_name, timestamp,
// metric_value (formatted "%f", so 6 decimals), one column per indexed system tag in sorted
// order, extra_tags ("mp_bucket=3&…", the VU tags of our scripts) and metadata. A request makes a
// dozen rows (http_reqs, the six timing phases, data_sent, …); only the rows below are kept.
import { StringDecoder } from 'node:string_decoder';

/** One instance's measured-scenario samples; durations in ms as k6 wrote them (6 decimals). */
export interface RawSamples {
  /** Durations of requests judged successful (expected_response:true, gRPC OK). */
  successMs: Float64Array;
  /** Timeline bucket (mp_bucket) of each success, aligned with successMs. */
  successBucket: Uint16Array;
  /** Durations of failed requests. */
  failureMs: Float64Array;
  /** Timeline bucket of each failure, aligned with failureMs. */
  failureBucket: Uint16Array;
  /** iteration_duration of each measured iteration. */
  iterationMs: Float64Array;
  /**
   * Epoch ms (CSV timeFormat unix_milli) when the first measured request started and the last
   * ended. k6 stamps a request's samples with its end, so the start is that less its duration:
   * one slow first request does not make an instance look late.
   */
  firstMs: number;
  lastMs: number;
}

/**
 * The metrics the merge reads. A runner that copies the CSV from elsewhere may keep only the
 * header and these rows first (`grep -E '^(metric_name|http_req_duration|grpc_req_duration|iteration_duration),'`):
 * the header names the columns, so it must stay.
 */
export const RAW_CSV_METRICS = ['http_req_duration', 'grpc_req_duration', 'iteration_duration'] as const;

/**
 * How often k6's csv output writes its buffered samples. At each flush (1 s by default) k6
 * formats every row buffered since the last one in one goroutine, so an instance at 4,000 rps
 * formats ~50,000 rows in one burst a second; on a machine short of cores those bursts were a
 * group's dropped iterations and most of its tail. bench/generators, 2 processes on 2 cores
 * beside the server, 3 rounds per 5 s step: flushed every 1 s they held under 6,000 rps; every
 * 50 ms, 9,000 and 8,000 in two runs where one process without the CSV held 8,000. Same CPU.
 */
export const CSV_SAVE_INTERVAL = '50ms';

/** k6's csv output argument for a file the merge can read: timestamps in epoch milliseconds. */
export function csvOutputArg(file: string): string {
  return `csv=fileName=${file},timeFormat=unix_milli,saveInterval=${CSV_SAVE_INTERVAL}`;
}

/** A sample with no mp_bucket tag (a user's script, or our warm-up): not on any timeline. */
export const NO_BUCKET = 0xffff;

export class RawSamplesFormatError extends Error {}

export interface CollectOptions {
  /** Scenario whose samples count ("measure" for our scripts); null keeps every scenario (a user's script). */
  measured?: string | null;
}

/** Streams k6's CSV and keeps the measured scenario's request durations, outcomes, buckets and iteration durations. */
export async function collectRawSamples(chunks: AsyncIterable<Buffer | string>, options: CollectOptions = {}): Promise<RawSamples> {
  const measured = options.measured === undefined ? 'measure' : options.measured;
  const reader = new CsvRows(measured);
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for await (const chunk of chunks) {
    const text = rest + (typeof chunk === 'string' ? chunk : decoder.write(chunk));
    let start = 0;
    for (let end = text.indexOf('\n', start); end !== -1; end = text.indexOf('\n', start)) {
      reader.line(text, start, end);
      start = end + 1;
    }
    rest = text.slice(start);
  }
  rest += decoder.end();
  if (rest.length > 0) reader.line(rest, 0, rest.length);
  return reader.result();
}

/** Whether the row at `start` is one of RAW_CSV_METRICS ("http_req_duration,…"). */
function keptMetricAt(text: string, start: number): boolean {
  for (const name of RAW_CSV_METRICS) if (text.startsWith(name, start) && text.charCodeAt(start + name.length) === 44) return true; // 44: ','
  return false;
}

class CsvRows {
  private columns?: { scenario: number; expected: number; status: number; extra: number; count: number };
  private readonly http = new Outcomes();
  private readonly grpc = new Outcomes();
  private readonly iterations = new Growing(Float64Array);
  private firstMs = Number.POSITIVE_INFINITY;
  private lastMs = Number.NEGATIVE_INFINITY;
  private pending = '';

  constructor(private readonly measured: string | null) {}

  line(text: string, start: number, end: number): void {
    if (end > start && text.charCodeAt(end - 1) === 13) end--; // \r\n
    if (end === start && !this.pending) return;
    if (!this.columns) {
      this.header(text.slice(start, end));
      return;
    }
    // Cheap test first, without copying: most rows are metrics the merge does not read.
    if (!this.pending && !keptMetricAt(text, start)) return;
    let row = this.pending + text.slice(start, end);
    // A quoted field may hold a newline (Go's csv writer quotes it): wait for the rest.
    if (row.includes('"') && unbalancedQuotes(row)) {
      this.pending = `${row}\n`;
      return;
    }
    this.pending = '';
    const fields = row.includes('"') ? splitQuoted(row) : row.split(',');
    row = '';
    this.sample(fields);
  }

  private header(line: string): void {
    const names = line.split(',');
    const at = (name: string) => names.indexOf(name);
    if (at('metric_name') !== 0 || at('metric_value') !== 2 || at('extra_tags') === -1)
      throw new RawSamplesFormatError(`k6's csv output has an unexpected header: ${JSON.stringify(line.slice(0, 200))}`);
    const columns = {
      scenario: at('scenario'),
      expected: at('expected_response'),
      status: at('status'),
      extra: at('extra_tags'),
      count: names.length,
    };
    if (this.measured !== null && columns.scenario === -1)
      throw new RawSamplesFormatError(
        'k6\'s csv output has no "scenario" column (system tags were narrowed), so the measured scenario cannot be told apart',
      );
    this.columns = columns;
  }

  private sample(fields: string[]): void {
    const c = this.columns!;
    if (fields.length !== c.count)
      throw new RawSamplesFormatError(`a row of k6's csv output has ${fields.length} fields, the header ${c.count}`);
    if (this.measured !== null && fields[c.scenario] !== this.measured) return;
    const value = Number(fields[2]);
    const time = Number(fields[1]);
    if (!Number.isFinite(value) || !Number.isFinite(time))
      throw new RawSamplesFormatError(`a row of k6's csv output has a non-numeric time or value: ${fields.slice(0, 3).join(',')}`);
    const name = fields[0];
    if (name === 'iteration_duration') {
      this.iterations.push(value);
      return;
    }
    if (time - value < this.firstMs) this.firstMs = time - value;
    if (time > this.lastMs) this.lastMs = time;
    const bucket = bucketOf(fields[c.extra]!);
    if (name === 'http_req_duration') this.http.add(value, bucket, c.expected !== -1 && fields[c.expected] === 'true');
    else this.grpc.add(value, bucket, c.status !== -1 && fields[c.status] === '0');
  }

  result(): RawSamples {
    if (!this.columns) throw new RawSamplesFormatError("k6's csv output is empty (no header): k6 did not start writing it");
    // As the summary does for a user's script: HTTP when it made HTTP calls, gRPC otherwise.
    const requests = this.http.size() > 0 || this.grpc.size() === 0 ? this.http : this.grpc;
    const none = this.firstMs === Number.POSITIVE_INFINITY;
    return {
      ...requests.arrays(),
      iterationMs: this.iterations.array(),
      firstMs: none ? 0 : Math.round(this.firstMs),
      lastMs: none ? 0 : this.lastMs,
    };
  }
}

class Outcomes {
  private readonly successMs = new Growing(Float64Array);
  private readonly successBucket = new Growing(Uint16Array);
  private readonly failureMs = new Growing(Float64Array);
  private readonly failureBucket = new Growing(Uint16Array);

  add(value: number, bucket: number, success: boolean): void {
    if (success) {
      this.successMs.push(value);
      this.successBucket.push(bucket);
    } else {
      this.failureMs.push(value);
      this.failureBucket.push(bucket);
    }
  }

  size(): number {
    return this.successMs.length + this.failureMs.length;
  }

  arrays(): Pick<RawSamples, 'successMs' | 'successBucket' | 'failureMs' | 'failureBucket'> {
    return {
      successMs: this.successMs.array(),
      successBucket: this.successBucket.array(),
      failureMs: this.failureMs.array(),
      failureBucket: this.failureBucket.array(),
    };
  }
}

type TypedArray = Float64Array | Uint16Array;

/** A typed array that doubles as it fills: a million samples stay a few MB, not a million boxed numbers. */
class Growing<T extends TypedArray> {
  private data: T;
  length = 0;

  constructor(private readonly make: new (n: number) => T) {
    this.data = new make(1024);
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = new this.make(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }

  array(): T {
    return this.data.slice(0, this.length) as T;
  }
}

/** mp_bucket from extra_tags ("mp_bucket=3&foo=bar"); NO_BUCKET when absent or not a number. */
function bucketOf(extra: string): number {
  const at = extra.indexOf('mp_bucket=');
  if (at === -1 || (at > 0 && extra.charCodeAt(at - 1) !== 38)) return NO_BUCKET; // 38: '&'
  let value = 0;
  let digits = 0;
  for (let i = at + 10; i < extra.length; i++) {
    const d = extra.charCodeAt(i) - 48;
    if (d < 0 || d > 9) {
      if (extra.charCodeAt(i) !== 38) return NO_BUCKET;
      break;
    }
    value = value * 10 + d;
    digits++;
  }
  return digits > 0 && value < NO_BUCKET ? value : NO_BUCKET;
}

function unbalancedQuotes(row: string): boolean {
  let quotes = 0;
  for (let i = row.indexOf('"'); i !== -1; i = row.indexOf('"', i + 1)) quotes++;
  return quotes % 2 === 1;
}

/** RFC 4180 fields of one row ("" inside quotes is a quote), as Go's encoding/csv writes them. */
function splitQuoted(row: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < row.length; i++) {
    const ch = row[i]!;
    if (quoted) {
      if (ch === '"' && row[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      fields.push(field);
      field = '';
    } else field += ch;
  }
  fields.push(field);
  return fields;
}
