// The in-cluster group of k6 instances, pure parts: `k6 status` as k6 1.4.2 prints it, the
// arguments each instance runs with, the raw-samples fetch (run here with a real sh, grep, gzip
// and base64, as in the pod).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeRawFetch, instanceArgs, parseK6Status, rawFetchCommand } from '../../../src/platform/kubernetes/k6-group.ts';
import { K6_PAUSED_BEFORE_RUN } from '../../../src/load/k6-group.ts';
import type { K6Invocation } from '../../../src/load/types.ts';

test('k6 status: paused before the run (captured from k6 1.4.2 `k6 run --paused`, then `k6 status`)', () => {
  // Captured here: `k6 run --paused --address 127.0.0.1:6991 s.js &` then `k6 status --address 127.0.0.1:6991`.
  const paused = 'status: 4\npaused: "true"\nvus: "0"\nvus-max: "5"\nstopped: false\nrunning: false\ntainted: false\n';
  assert.deepEqual(parseK6Status(paused), { status: K6_PAUSED_BEFORE_RUN, paused: true });
  // What `k6 resume` prints right after resuming.
  const resumed = 'status: 4\npaused: "false"\nvus: "0"\nvus-max: "5"\nstopped: false\nrunning: false\ntainted: false\n';
  assert.deepEqual(parseK6Status(resumed), { status: 4, paused: false });
  assert.deepEqual(parseK6Status('status: 1\npaused: "true"\n'), { status: 1, paused: true }, 'still initializing VUs');
  assert.equal(parseK6Status('time="…" level=error msg="connection refused"'), undefined);
});

const invocation = (extra: Partial<K6Invocation> = {}): K6Invocation => ({
  files: { 'mesh-perf.js': '' },
  entry: 'mesh-perf.js',
  args: ['--summary-trend-stats', 'avg'],
  env: {},
  summaryFile: 'summary.json',
  expectedSeconds: 5,
  instance: { index: 1, count: 3, segment: '1/3:2/3', sequence: '0,1/3,2/3,1' },
  ...extra,
});

test('instance arguments: paused, its own API port, its own execution segment (unless the engine gave it)', () => {
  assert.deepEqual(instanceArgs(invocation(), 6566), [
    '--paused',
    '--address',
    '127.0.0.1:6566',
    '--execution-segment',
    '1/3:2/3',
    '--execution-segment-sequence',
    '0,1/3,2/3,1',
    '--summary-trend-stats',
    'avg',
  ]);
  const given = ['--execution-segment', '1/3:2/3', '--execution-segment-sequence', '0,1/3,2/3,1'];
  assert.deepEqual(instanceArgs(invocation({ args: given }), 6566), ['--paused', '--address', '127.0.0.1:6566', ...given]);
});

test('raw samples fetch: the header and the merged metrics only, byte for byte after gzip and base64', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mesh-perf-raw-'));
  try {
    const rows = [
      'metric_name,timestamp,metric_value,check,error,expected_response,scenario,extra_tags',
      'http_reqs,1700000000000,1.000000,,,true,measure,mp_bucket=0',
      'http_req_duration,1700000000000,1.234567,,,true,measure,mp_bucket=0',
      'http_req_duration_x,1700000000000,9.000000,,,true,measure,',
      'iteration_duration,1700000000001,1.500000,,,,measure,mp_bucket=0',
      'grpc_req_duration,1700000000002,2.000000,,,,measure,',
      'data_sent,1700000000002,100.000000,,,,measure,',
    ];
    writeFileSync(join(dir, 'raw.csv'), `${rows.join('\n')}\n`);
    const [cmd, ...args] = rawFetchCommand(dir, 'raw.csv', ['http_req_duration', 'grpc_req_duration', 'iteration_duration']);
    const stdout = execFileSync(cmd!, args, { encoding: 'utf8' });
    assert.match(stdout, /^[A-Za-z0-9+/=\n]+$/, 'text only: the exec stream is decoded as UTF-8');
    assert.equal(decodeRawFetch(stdout), `${[rows[0], rows[2], rows[4], rows[5]].join('\n')}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
