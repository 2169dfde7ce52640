// Bad configs and bad flags, through the CLI's own main() in-process (a spawned tsx per case costs
// seconds): each must exit with the right code, name the field and where it came from, print no
// stack trace, answer in under a second, and start nothing (no results folder is written).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { main } from '../../src/cli/main.ts';
import { silentLogger } from '../../src/util/log.ts';
import { withTempDir, withColumns } from '../support/cli.ts';

interface Case {
  name: string;
  yaml?: string | Buffer;
  args: string[];
  code: number;
  /** Every pattern must appear in stderr: the field, the source, the value. */
  says: RegExp[];
  setup?: (dir: string) => Promise<void>;
}

const FIXTURE = new URL('../github/fixtures/results-local-pass.json', import.meta.url);

const LOCAL = 'modes: [{ name: a }, { name: b, local: { hops: 1 } }]\n';

const CASES: Case[] = [
  // Checked before load: files, k6 limits, the machine's rate ceiling.
  {
    name: 'load.script missing',
    yaml: `${LOCAL}load: { script: ./nope.js }\n`,
    args: ['plan'],
    code: 2,
    says: [/load\.script: does not exist: "\.\/nope\.js"/],
  },
  {
    name: 'load.script a directory',
    yaml: `${LOCAL}load: { script: ./scripts }\n`,
    args: ['run'],
    code: 2,
    says: [/load\.script: is a directory/],
    setup: (dir) => mkdir(join(dir, 'scripts')),
  },
  {
    name: 'rate below k6 resolution',
    yaml: `${LOCAL}load: { rate: 0.0001 }\n`,
    args: ['run'],
    code: 2,
    says: [/load\.rate: expected at least 0\.001/, /got 0\.0001/],
  },
  {
    name: 'rate too low to send a request',
    yaml: `${LOCAL}load: { rate: 0.01, duration: 10s }\n`,
    args: ['plan'],
    code: 2,
    says: [/load\.rate: 0\.01 rps for 10s sends no request/],
  },
  {
    name: 'duration under 1 s',
    yaml: `${LOCAL}load: { rate: 5, duration: 5ms }\n`,
    args: ['run'],
    code: 2,
    says: [/load\.duration: expected at least 1s .*got "5ms"/],
  },
  {
    name: 'warm-up under 1 s',
    yaml: `${LOCAL}load: { rate: 5, warmup: 500ms }\n`,
    args: ['plan'],
    code: 2,
    says: [/load\.warmup: expected 0s or at least 1s, got "500ms"/],
  },
  {
    name: 'rate above the machine ceiling',
    yaml: `${LOCAL}load: { rate: 50000 }\n`,
    args: ['run'],
    code: 2,
    says: [/load\.rate: 50000 rps is above what k6 can hold on this machine, however many processes/, /hold at most \d+ rps/],
  },
  {
    name: 'more k6 instances than the rate gives 1 rps each',
    yaml: `${LOCAL}load: { rate: 3, generators: 4 }\n`,
    args: ['plan'],
    code: 2,
    says: [/load\.generators: 4 k6 instances would share 3 rps, under 1 rps each; expected at most 3 for this rate/],
  },
  {
    name: 'load.generators neither a whole number nor auto',
    yaml: `${LOCAL}load: { rate: 100, generators: two }\n`,
    args: ['run'],
    code: 2,
    says: [/load\.generators: expected a whole number of k6 instances ≥ 1 or "auto", got "two"/],
  },
  {
    name: "several k6 instances with a user's own script",
    yaml: `${LOCAL}load: { script: ./s.js, generators: 2 }\n`,
    args: ['run'],
    code: 2,
    says: [/load\.generators: expected 1 with a user's own script \(load\.script\), got 2/],
    setup: (dir) => writeFile(join(dir, 's.js'), 'export default function () {}\n'),
  },
  {
    name: 'more k6 instances than VUs (closed model)',
    yaml: `${LOCAL}load: { model: closed, vus: 2, generators: 3 }\n`,
    args: ['plan'],
    code: 2,
    says: [/load\.generators: 3 k6 instances would share 2 VUs/],
  },
  {
    name: 'rate above the ceiling in a list profile',
    yaml: `${LOCAL}load: [{ rate: 5 }, { rate: 90000 }]\n`,
    args: ['plan'],
    code: 2,
    says: [/load\[1\]\.rate: 90000 rps/],
  },
  {
    name: 'gRPC port 99999',
    yaml: 'platform: endpoints\nmodes: [{ name: a, grpc: "127.0.0.1:99999" }]\nload: { rate: 5, protocol: grpc }\n',
    args: ['run'],
    code: 2,
    says: [/modes\[0\]\.grpc: expected a port from 1 to 65535/, /"127\.0\.0\.1:99999"/],
  },
  // Fields that do not apply to the platform.
  {
    name: 'mesh on local',
    yaml: 'modes: [{ name: a }, { name: b, mesh: istio-sidecar }]\nload: { rate: 5 }\n',
    args: ['run'],
    code: 2,
    says: [/modes\[1\]\.mesh: does not apply to platform "local"/, /istio-sidecar/],
  },
  {
    name: 'url on local',
    yaml: 'modes: [{ name: a, url: "http://127.0.0.1:9/" }]\nload: { rate: 5 }\n',
    args: ['plan'],
    code: 2,
    says: [/modes\[0\]\.url: does not apply to platform "local"/],
  },
  {
    name: 'grpc on local',
    yaml: 'modes: [{ name: a, grpc: "127.0.0.1:9" }]\nload: { rate: 5 }\n',
    args: ['plan'],
    code: 2,
    says: [/modes\[0\]\.grpc: does not apply to platform "local"/],
  },
  {
    name: 'local on endpoints',
    yaml: 'platform: endpoints\nmodes: [{ name: a, url: "http://127.0.0.1:9/", local: { hops: 1 } }]\nload: { rate: 5 }\n',
    args: ['run'],
    code: 2,
    says: [/modes\[0\]\.local: does not apply to platform "endpoints"/],
  },
  {
    name: 'url and grpc together',
    yaml: 'platform: endpoints\nmodes: [{ name: a, url: "http://127.0.0.1:9/", grpc: "127.0.0.1:9" }]\nload: { rate: 5 }\n',
    args: ['run'],
    code: 2,
    says: [/modes\[0\]\.grpc: is set beside url but no load profile has protocol grpc/],
  },
  {
    name: 'url on kind',
    yaml: 'platform: kind\nmodes: [{ name: baseline, url: "http://127.0.0.1:9/" }]\nload: { rate: 5 }\n',
    args: ['plan'],
    code: 2,
    says: [/modes\[0\]\.url: does not apply to platform "kind"/],
  },
  {
    name: 'namespace labels on local',
    yaml: 'modes: [{ name: a, namespaceLabels: { x: y } }]\nload: { rate: 5 }\n',
    args: ['plan'],
    code: 2,
    says: [/modes\[0\]\.namespaceLabels: does not apply to platform "local"/],
  },
  // YAML itself.
  {
    name: 'malformed YAML',
    yaml: 'modes:\n  - name: a\n   url: [x\n',
    args: ['run'],
    code: 2,
    says: [/mesh-perf\.yaml is not valid YAML at line 3, column 1: [^\n]+$/m],
  },
  { name: 'two YAML documents', yaml: `${LOCAL}---\nload: { rate: 5 }\n`, args: ['plan'], code: 2, says: [/more than one YAML document/] },
  {
    name: 'binary file',
    yaml: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x00, 0x00]),
    args: ['plan'],
    code: 2,
    says: [/mesh-perf\.yaml is not a YAML text file/],
  },
  {
    name: 'alias bomb',
    yaml: `a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [${'*a,'.repeat(9)}]\nc: &c [${'*b,'.repeat(9)}]\nd: &d [${'*c,'.repeat(9)}]\ne: [${'*d,'.repeat(9)}]\n`,
    args: ['plan'],
    code: 2,
    says: [/mesh-perf\.yaml: its YAML aliases/],
  },
  {
    name: 'deep nesting',
    yaml: `modes: [{ name: a }]\nload: { rate: 5 }\nx: ${'['.repeat(2000)}${']'.repeat(2000)}\n`,
    args: ['plan'],
    code: 2,
    says: [/mesh-perf\.yaml/, /nests too deeply|nests more than/],
  },
  {
    name: 'moderately deep nesting',
    yaml: `modes: [{ name: a, env: ${'{ a: '.repeat(60)}x${' }'.repeat(60)} }]\n`,
    args: ['plan'],
    code: 2,
    says: [/nests more than 32 levels deep at modes\[0\]\.env\.a/],
  },
  {
    name: 'duplicate key',
    yaml: `${LOCAL}load:\n  rate: 5\n  rate: 6\n`,
    args: ['plan'],
    code: 2,
    says: [/at line 4: key "rate" appears twice/],
  },
  { name: 'top level is a list', yaml: '- a\n- b\n', args: ['plan'], code: 2, says: [/expected a YAML mapping/] },
  // Schema and cross-field.
  { name: 'top-level rate', yaml: `${LOCAL}rate: 5\n`, args: ['plan'], code: 2, says: [/unknown key "rate"; did you mean "load\.rate"\?/] },
  {
    name: 'unknown load key',
    yaml: `${LOCAL}load: { rate: 5, duraton: 5s }\n`,
    args: ['plan'],
    code: 2,
    says: [/load: unknown key "duraton"; did you mean "duration"\?/],
  },
  {
    name: 'load: [1]',
    yaml: `${LOCAL}load: [1]\n`,
    args: ['plan'],
    code: 2,
    says: [/load\[0\]: expected an object \(key: value\), got 1/],
  },
  {
    name: '__proto__ key',
    yaml: `${LOCAL}load: { rate: 5 }\n__proto__: { x: 1 }\n`,
    args: ['plan'],
    code: 2,
    says: [/mesh-perf\.yaml, line 3: key "__proto__" is not allowed/],
  },
  {
    name: 'baseline names no mode',
    yaml: `${LOCAL}load: { rate: 5 }\nbaseline: c\n`,
    args: ['plan'],
    code: 2,
    says: [/baseline: names no mode: got "c"/],
  },
  {
    name: 'duplicate mode names',
    yaml: 'modes: [{ name: a }, { name: a }]\nload: { rate: 5 }\n',
    args: ['plan'],
    code: 2,
    says: [/modes\[1\]\.name: duplicate mode name "a"/],
  },
  {
    name: 'fractional repetitions',
    yaml: `${LOCAL}load: { rate: 5, repetitions: 2.5 }\n`,
    args: ['plan'],
    code: 2,
    says: [/load\.repetitions: expected a whole number .*2\.5/],
  },
  {
    name: 'error rate gate above 100%',
    yaml: `${LOCAL}load: { rate: 5 }\ngates: { thresholds: ["error_rate < 101%"] }\n`,
    args: ['plan'],
    code: 2,
    says: [/gates\.thresholds\[0\]/, /error_rate 101% is outside 0–100%/],
  },
  {
    name: 'error rate gate of 1',
    yaml: `${LOCAL}load: { rate: 5 }\ngates: { thresholds: ["error_rate < 1"] }\n`,
    args: ['plan'],
    code: 2,
    says: [/gates\.thresholds\[0\]/, /error_rate 1 means 100%/],
  },
  {
    name: 'negative error rate gate',
    yaml: `${LOCAL}load: { rate: 5 }\ngates: { thresholds: ["error_rate < -1%"] }\n`,
    args: ['plan'],
    code: 2,
    says: [/error_rate -1% is outside/],
  },
  // Flags: attributed to the flag, not the file.
  {
    name: '--rate -5',
    yaml: `${LOCAL}load: { rate: 5 }\n`,
    args: ['plan', '--rate', '-5'],
    code: 2,
    says: [/^mesh-perf plan: flag --rate has a problem/m, /load\.rate: .*got -5/],
  },
  {
    name: '--seed -1',
    yaml: `${LOCAL}load: { rate: 5 }\n`,
    args: ['run', '--seed', '-1'],
    code: 2,
    says: [/flag --seed has a problem/, /plan\.seed/],
  },
  {
    name: '--rate not a number',
    yaml: `${LOCAL}load: { rate: 5 }\n`,
    args: ['plan', '--rate', 'lots'],
    code: 2,
    says: [/--rate: expected a number, got "lots"/],
  },
  {
    name: '--duration 5ms',
    yaml: `${LOCAL}load: { rate: 5 }\n`,
    args: ['run', '--duration', '5ms'],
    code: 2,
    says: [/flag --duration has a problem/, /load\.duration: expected at least 1s/],
  },
  {
    name: '--repetitions 0',
    yaml: `${LOCAL}load: { rate: 5 }\n`,
    args: ['plan', '--repetitions', '0'],
    code: 2,
    says: [/flag --repetitions/, /load\.repetitions/],
  },
  {
    name: '--platform kube',
    yaml: `${LOCAL}load: { rate: 5 }\n`,
    args: ['plan', '--platform', 'kube'],
    code: 2,
    says: [/flag --platform has a problem/, /platform: expected one of .*got "kube"/],
  },
  { name: '--modes bad YAML', yaml: `${LOCAL}load: { rate: 5 }\n`, args: ['plan', '--modes', '[{ name: a'], code: 2, says: [/--modes/] },
  {
    name: '--baseline-mode unknown',
    yaml: `${LOCAL}load: { rate: 5 }\n`,
    args: ['plan', '--baseline-mode', 'zz'],
    code: 2,
    says: [/flag --baseline-mode has a problem/, /baseline: names no mode: got "zz"/],
  },
  {
    name: 'mixed sources',
    yaml: `${LOCAL}load: { rate: 5, repetitions: 2.5 }\n`,
    args: ['plan', '--rate', '-1'],
    code: 2,
    says: [/the configuration has 2 problems/, /load\.rate \(flag --rate\)/, /load\.repetitions \(mesh-perf\.yaml\)/],
  },
  {
    name: 'preset with a bad flag',
    args: ['plan', '--preset', 'ambient-modes', '--duration', '10'],
    code: 2,
    says: [/flag --duration has a problem/, /load\.duration/],
  },
  {
    name: 'unknown preset',
    args: ['plan', '--preset', 'ambiant-modes'],
    code: 2,
    says: [/flag --preset: unknown preset "ambiant-modes"; did you mean "ambient-modes"\?/],
  },
  {
    name: 'preset on local with a too high rate',
    args: ['plan', '--preset', 'ambient-modes', '--platform', 'local', '--rate', '60000'],
    code: 2,
    says: [/flag --rate has a problem/, /60000 rps is above/],
  },
  // --baseline is stored results; the mode is --baseline-mode.
  {
    name: '--baseline a mode name',
    yaml: 'modes: [{ name: baseline }, { name: candidate, local: { hops: 1 } }]\nload: { rate: 5 }\n',
    args: ['run', '--baseline', 'candidate'],
    code: 2,
    says: [/--baseline candidate: no such file or folder/, /use --baseline-mode candidate/],
  },
  {
    name: '--baseline a missing store',
    yaml: `${LOCAL}load: { rate: 5 }\n`,
    args: ['run', '--baseline', './store'],
    code: 2,
    says: [/--baseline \.\/store: no such file or folder/],
  },
  // Issue 28: bounds before allocation, checked by plan as by run (each failed or crashed before).
  {
    name: 'repetitions 1e9',
    yaml: `${LOCAL}load: { rate: 5, repetitions: 1000000000 }\n`,
    args: ['plan'],
    code: 2,
    says: [/load\.repetitions: expected load\.repetitions ≤ 100,000 .*got 1000000000/],
  },
  {
    name: '--repetitions 1e8',
    yaml: `${LOCAL}load: { rate: 5 }\n`,
    args: ['plan', '--repetitions', '100000000'],
    code: 2,
    says: [/flag --repetitions has a problem/, /≤ 100,000/],
  },
  {
    name: 'a million trials',
    yaml: `modes: [${Array.from({ length: 20 }, (_, i) => `{ name: m${i} }`).join(', ')}]\nload: { rate: 5, repetitions: 100000 }\n`,
    args: ['run'],
    code: 2,
    says: [/load\.repetitions: 20 modes × 100,000 repetitions make 2,000,000 trials; expected at most 1,000,000/],
  },
  {
    name: 'vus 1e9',
    yaml: `${LOCAL}load: { model: closed, vus: 1e9 }\n`,
    args: ['plan'],
    code: 2,
    says: [/load\.vus: expected load\.vus ≤ 1,000,000/],
  },
  {
    name: 'a gate scope of 50,000 names',
    yaml: `${LOCAL}load: { rate: 5 }\ngates: { thresholds: ["mode=${Array(50_000).fill('x').join(',')}: p(99) < 5ms"] }\n`,
    args: ['plan'],
    code: 2,
    says: [/gates\.thresholds\[0\]: expected at most 1,000 characters for a gate expression, got 100,017/],
  },
  {
    name: 'a gate scope of unknown names, one problem',
    yaml: `${LOCAL}load: { rate: 5 }\ngates: { thresholds: ["mode=${Array.from({ length: 200 }, (_, i) => `x${i}`).join(',')}: p(99) < 5ms"] }\n`,
    args: ['plan'],
    code: 2,
    says: [/has a problem:/, /names modes "x0", "x1", "x2", "x3", "x4" and 195 more, which are not configured/],
  },
  {
    name: 'an image of "a/" × 100,000 (was 62 s of regex backtracking)',
    yaml: `${LOCAL}load: { rate: 5 }\nkubernetes: { images: { echo: "${'a/'.repeat(100_000)}" } }\n`,
    args: ['plan'],
    code: 2,
    says: [/kubernetes\.images\.echo: expected at most 512 characters .*got 200,000/],
  },
  {
    name: 'a 400-digit duration',
    yaml: `${LOCAL}load: { rate: 5, duration: ${'9'.repeat(400)}s }\n`,
    args: ['plan'],
    code: 2,
    says: [/load\.duration: expected a duration .*"9{80}"… \(401 characters\)/],
  },
  {
    name: 'a duration of 8 days',
    yaml: `${LOCAL}load: { rate: 5, duration: 192h }\n`,
    args: ['plan'],
    code: 2,
    says: [/load\.duration: expected load\.duration of at most 7 days .*got "192h"/],
  },
  {
    name: 'a duration with a line break',
    yaml: `${LOCAL}load: { rate: 5, duration: "10s\\n" }\n`,
    args: ['plan'],
    code: 2,
    says: [/load\.duration: expected a duration with a unit .*got "10s\\n"/],
  },
  // Issue 28: plan refuses what run would refuse or ignore.
  {
    name: 'two local modes on one port',
    yaml: 'modes: [{ name: a, local: { port: 9000 } }, { name: b, local: { hops: 1, port: 9000 } }]\nload: { rate: 5 }\n',
    args: ['plan'],
    code: 2,
    says: [/modes\[1\]\.local\.port: port 9000 is also the port of modes\[0\] "a"/],
  },
  {
    name: 'load.replicas on local',
    yaml: `${LOCAL}load: { rate: 5, replicas: 3 }\n`,
    args: ['plan'],
    code: 2,
    says: [/load\.replicas: does not apply to platform "local"/],
  },
  {
    name: 'kubernetes.ingress on endpoints',
    yaml: 'platform: endpoints\nmodes: [{ name: a, url: "http://127.0.0.1:9/" }]\nload: { rate: 5 }\nkubernetes: { ingress: { replicas: 2 } }\n',
    args: ['plan'],
    code: 2,
    says: [/kubernetes\.ingress: does not apply to platform "endpoints"/],
  },
  // Issue 28: echoed values are cut.
  {
    name: 'a 900 KB suite name',
    yaml: `${LOCAL}load: { rate: 5 }\nsuite: "${'a'.repeat(900_000)}"\n`,
    args: ['plan'],
    code: 2,
    says: [/suite: expected at most 40 characters for suite name, got 900,000/],
  },
  {
    name: 'a 900 KB unknown key',
    yaml: `${LOCAL}load: { rate: 5 }\n? ${'k'.repeat(900_000)}\n: 1\n`,
    args: ['plan'],
    code: 2,
    says: [/unknown key "k{80}"… \(900,000 characters\)/],
  },
  // Issue 28: the command line.
  {
    name: '--rate= (empty)',
    yaml: `${LOCAL}load: { rate: 5 }\n`,
    args: ['plan', '--rate='],
    code: 2,
    says: [/--rate needs a value \(N\), got an empty one/],
  },
  { name: '--modes= (empty)', yaml: `${LOCAL}load: { rate: 5 }\n`, args: ['plan', '--modes='], code: 2, says: [/--modes needs a value/] },
  { name: "--config ''", args: ['plan', '--config', ''], code: 2, says: [/--config needs a value \(FILE\), got an empty one/] },
  {
    name: '--rate twice',
    yaml: `${LOCAL}load: { rate: 5 }\n`,
    args: ['plan', '--rate', '5', '--rate=6'],
    code: 2,
    says: [/--rate is given twice \("5" and "6"\); give it once/],
  },
  { name: 'help nope', args: ['help', 'nope'], code: 2, says: [/^mesh-perf help: unknown command "nope"/m] },
  {
    name: 'an undefined YAML alias',
    yaml: `${LOCAL}load: *nope\n`,
    args: ['plan'],
    code: 2,
    says: [/mesh-perf\.yaml is not valid YAML at line 2: alias \*nope names no anchor/],
  },
  {
    name: 'a null key',
    yaml: `${LOCAL}load: { rate: 5 }\nnull: 1\n`,
    args: ['plan'],
    code: 2,
    says: [/mesh-perf\.yaml, line 3: key null is a YAML null/],
  },
  // Issue 28: files in the way, FIFOs and devices.
  {
    name: 'init --config under a file',
    args: ['init', '--config', 'afile/x.yaml'],
    code: 2,
    says: [/--config afile\/x\.yaml: .*afile is a file, not a directory/],
    setup: (dir) => writeFile(join(dir, 'afile'), ''),
  },
  {
    name: 'report --out a file',
    args: ['report', '--results', 'r.json', '--out', 'afile'],
    code: 2,
    says: [/--out afile: .*afile is a file, not a directory/],
    setup: async (dir) => {
      await writeFile(join(dir, 'afile'), '');
      await copyFile(FIXTURE, join(dir, 'r.json'));
    },
  },
  {
    name: 'compare A A',
    args: ['compare', 'r.json', 'r.json'],
    code: 2,
    says: [/r\.json and r\.json hold the same run/],
    setup: (dir) => copyFile(FIXTURE, join(dir, 'r.json')),
  },
  {
    name: 'compare with a FIFO',
    args: ['compare', 'r.json', 'f.fifo'],
    code: 2,
    says: [/f\.fifo is a FIFO \(named pipe\); pass a results\.json file/],
    setup: async (dir) => {
      await copyFile(FIXTURE, join(dir, 'r.json'));
      execFileSync('mkfifo', [join(dir, 'f.fifo')]);
    },
  },
  {
    name: 'report --results a FIFO',
    args: ['report', '--results', 'f.fifo'],
    code: 2,
    says: [/--results .*f\.fifo is a FIFO/],
    setup: async (dir) => void execFileSync('mkfifo', [join(dir, 'f.fifo')]),
  },
  {
    name: 'a config over 2 MB',
    yaml: `${LOCAL}load: { rate: 5 }\nx: ${'v'.repeat(2_100_000)}\n`,
    args: ['plan'],
    code: 2,
    says: [/config file mesh-perf\.yaml is larger than 2,000,000 bytes/],
  },
  { name: '--config a device', args: ['plan', '--config', '/dev/zero'], code: 2, says: [/config file \/dev\/zero is a character device/] },
  // The command line itself.
  {
    name: 'plan has no --publish',
    yaml: `${LOCAL}load: { rate: 5 }\n`,
    args: ['plan', '--publish', 'true'],
    code: 2,
    says: [/^mesh-perf plan: unknown option --publish; it is an option of run/m],
  },
  { name: 'no command has --comment', args: ['run', '--comment', 'always'], code: 2, says: [/unknown option --comment/] },
  {
    name: '--config a directory',
    args: ['plan', '--config', 'conf'],
    code: 2,
    says: [/--config conf: is a directory/],
    setup: (dir) => mkdir(join(dir, 'conf')),
  },
  {
    name: '--config missing',
    args: ['run', '--config', 'nope.yaml'],
    code: 2,
    says: [/config file nope\.yaml does not exist; run `mesh-perf init`/],
  },
  { name: 'option without its value', args: ['run', '--out'], code: 2, says: [/--out needs a value/] },
  { name: 'switch given a value', args: ['plan', '--json=yes'], code: 2, says: [/--json takes no value/] },
  { name: 'unexpected argument', args: ['plan', 'extra'], code: 2, says: [/unexpected argument "extra"/] },
  { name: 'unknown command', args: ['rnu'], code: 2, says: [/^mesh-perf: unknown command "rnu"; did you mean "run"\?/m] },
  { name: 'unknown flag', args: ['run', '--confg', 'x'], code: 2, says: [/unknown option --confg; did you mean --config\?/] },
];

test('the table holds at least 40 cases', () => assert.ok(CASES.length >= 40, String(CASES.length)));

// These cases assert what an error says, on one line each (1000 columns); how errors wrap at
// the terminal's width is test/cli/error-text.test.ts's.
async function invoke(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  let stdout = '';
  let stderr = '';
  const started = performance.now();
  const code = await withColumns(1000, () =>
    main(args, {
      stdout: (t) => void (stdout += t),
      stderr: (t) => void (stderr += t),
      log: silentLogger,
      cwd,
      signal: new AbortController().signal,
    }),
  );
  return { code, stdout, stderr, ms: performance.now() - started };
}

test('warm-up: modules loaded once before timing', async () => {
  await withTempDir(async (dir) => void (await invoke(['plan', '--preset', 'ambient-modes'], dir)));
});

for (const c of CASES) {
  test(`bad input: ${c.name} → exit ${c.code}`, async () => {
    await withTempDir(async (dir) => {
      if (c.yaml !== undefined) await writeFile(join(dir, 'mesh-perf.yaml'), c.yaml);
      await c.setup?.(dir);
      const run = await invoke(c.args, dir);
      assert.equal(run.code, c.code, run.stderr);
      for (const pattern of c.says) assert.match(run.stderr, pattern);
      assert.doesNotMatch(
        run.stderr,
        /\n\s+at .+:\d+:\d+|\b(TypeError|RangeError|ReferenceError|Maximum call stack)\b/,
        'no stack trace or raw JS error',
      );
      assert.doesNotMatch(run.stderr, /mesh-perf: mesh-perf |mesh-perf \w+: mesh-perf \w+:/, 'one prefix');
      assert.ok(run.ms < 1000, `answered in ${run.ms.toFixed(0)} ms`);
      assert.equal(existsSync(join(dir, 'mesh-perf-results')), false, 'nothing started: no results written');
    });
  });
}

test('100,000 unknown keys: exit 2 under 2 s with a bounded message', async () => {
  await withTempDir(async (dir) => {
    const keys = Array.from({ length: 100_000 }, (_, i) => `key${i}: ${i}`).join('\n');
    await writeFile(join(dir, 'mesh-perf.yaml'), `modes: [{ name: a }]\nload: { rate: 5 }\n${keys}\n`);
    const run = await invoke(['plan'], dir);
    assert.equal(run.code, 2, run.stderr.slice(0, 500));
    assert.match(run.stderr, /unknown keys "key0" \(line 3\), "key1" \(line 4\).* and 99,995 more unknown top-level keys/);
    assert.ok(run.stderr.length < 2000, `message of ${run.stderr.length} characters`);
    assert.ok(run.ms < 2000, `answered in ${run.ms.toFixed(0)} ms`);
  });
});

test('100,000 unknown keys in a section: exit 2 under 2 s with a bounded message', async () => {
  await withTempDir(async (dir) => {
    const keys = Array.from({ length: 100_000 }, (_, i) => `  key${i}: ${i}`).join('\n');
    await writeFile(join(dir, 'mesh-perf.yaml'), `modes: [{ name: a }]\nload:\n  rate: 5\n${keys}\n`);
    const run = await invoke(['plan'], dir);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /load: unknown keys "key0" \(line 4\), "key1" \(line 5\).* and 99,995 more unknown keys \(expected/);
    assert.ok(run.stderr.length < 2000, `message of ${run.stderr.length} characters`);
    assert.ok(run.ms < 2000, `answered in ${run.ms.toFixed(0)} ms`);
  });
});
