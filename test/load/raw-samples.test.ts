// Reading k6's `--out csv` file into one instance's raw samples. The fixture is real k6 1.4.2
// output (test/fixtures/k6/raw-samples.csv: a run of k6/http.js at 200 rps against a server that
// answered 10% of requests with 503, `--out csv=fileName=raw.csv,timeFormat=unix_milli`, cut to
// two rows per metric, scenario and outcome).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { collectRawSamples, csvOutputArg, NO_BUCKET, RAW_CSV_METRICS, RawSamplesFormatError } from '../../src/load/raw-samples.ts';

const CSV = readFileSync(new URL('../fixtures/k6/raw-samples.csv', import.meta.url), 'utf8');

async function* pieces(text: string, size: number): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

test('keeps the measured scenario: successes, failures (503), their buckets, iterations and the time span', async () => {
  const raw = await collectRawSamples(pieces(CSV, 1 << 16));
  assert.deepEqual([...raw.successMs], [1.232776, 0.213917]);
  assert.deepEqual([...raw.successBucket], [0, 0]);
  assert.deepEqual([...raw.failureMs], [0.39167, 0.4252]);
  assert.deepEqual([...raw.iterationMs], [1.453213, 0.381465]);
  assert.equal(raw.firstMs, 1795424328166, 'the first request ended at …167 after 1.23 ms');
  assert.equal(raw.lastMs, 1795424328221);
});

test('the same samples however the stream is cut, even inside a multi-byte character', async () => {
  const whole = await collectRawSamples(pieces(CSV, 1 << 20));
  for (const size of [1, 7, 64, 333]) {
    const cut = await collectRawSamples(pieces(`${CSV.trimEnd()}\r\n`, size));
    assert.deepEqual(cut, whole, `chunks of ${size} bytes`);
  }
  const withUnicode = CSV.replace(/,mp_bucket=0,/g, ',mp_bucket=0&note=é€,');
  for (const size of [1, 2, 3]) assert.deepEqual(await collectRawSamples(pieces(withUnicode, size)), whole);
});

test('measured: null keeps every scenario (a user script has no measured one)', async () => {
  const raw = await collectRawSamples(pieces(CSV, 100), { measured: null });
  assert.equal(raw.successMs.length, 4);
  assert.equal(raw.failureMs.length, 4);
  assert.deepEqual([...raw.successBucket.slice(0, 2)], [NO_BUCKET, NO_BUCKET], 'warm-up rows carry mp_bucket=warmup: no bucket');
});

test('quoted fields (a URL with a comma, a tag with a newline) are read as Go writes them', async () => {
  const header = CSV.split('\n')[0]!;
  const row = (url: string, extra: string) =>
    `http_req_duration,1000,2.500000,,,,true,,GET,${url},HTTP/1.1,measure,,200,,,${url},${extra},`;
  const text = `${header}\n${row('"http://h/?a=1,b=2"', 'mp_bucket=3')}\n${row('http://h/', '"mp_bucket=4&note=x\ny"')}\n`;
  const raw = await collectRawSamples(pieces(text, 5));
  assert.deepEqual([...raw.successMs], [2.5, 2.5]);
  assert.deepEqual([...raw.successBucket], [3, 4]);
});

test('gRPC: grpc_req_duration with status 0 succeeds, any other status fails', async () => {
  const header = CSV.split('\n')[0]!;
  const row = (status: string, v: string) => `grpc_req_duration,1000,${v},,,,,,,x,,measure,,${status},,,x,mp_bucket=1,`;
  const raw = await collectRawSamples(pieces(`${header}\n${row('0', '1.000000')}\n${row('14', '2.000000')}\n`, 50));
  assert.deepEqual([...raw.successMs], [1]);
  assert.deepEqual([...raw.failureMs], [2]);
});

test('a file k6 never wrote to, or one without a scenario column, is an error that says so', async () => {
  await assert.rejects(collectRawSamples(pieces('', 10)), (e: Error) => e instanceof RawSamplesFormatError && /empty/.test(e.message));
  await assert.rejects(collectRawSamples(pieces('metric_name,timestamp,metric_value,extra_tags,metadata\n', 10)), /no "scenario" column/);
  const header = CSV.split('\n')[0]!;
  await assert.rejects(collectRawSamples(pieces(`${header}\nhttp_req_duration,1,2\n`, 10)), /has 3 fields, the header 19/);
});

test('the csv output argument and the metrics a remote runner keeps', () => {
  assert.equal(csvOutputArg('/tmp/x/raw.csv'), 'csv=fileName=/tmp/x/raw.csv,timeFormat=unix_milli,saveInterval=50ms');
  assert.deepEqual([...RAW_CSV_METRICS], ['http_req_duration', 'grpc_req_duration', 'iteration_duration']);
});
