// Issue 28's acceptance: a generated bad-input suite. Configs are made by mutating a valid config
// field by field, from the schema itself (test/support/schema-walk.ts), so the suite grows with
// the schema: wrong types, out-of-range numbers, huge strings and lists, unknown keys, nulls; then
// YAML edge cases. CLI calls are made from every command's own option list: missing, empty,
// repeated, huge and special-file values. Each goes through the CLI's main() in-process (a spawned
// CLI costs seconds per call on a busy machine; test/cli/hostile-input-e2e.test.ts spawns the few
// that need a process: pipes closed by the reader, signals). Every call must end with 0-3, print
// no stack trace and no validator text, answer in under 2 s, keep its message short, and name the
// field or flag.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { withColumns } from '../support/cli.ts';
import { main } from '../../src/cli/main.ts';
import { COMMANDS } from '../../src/cli/registry.ts';
import { formatPath } from '../../src/config/validate.ts';
import { silentLogger } from '../../src/util/log.ts';
import { type JsonSchema, schemaNodes, typeOf } from '../support/schema-walk.ts';

const VALID = {
  suite: 'robust',
  modes: [{ name: 'a' }, { name: 'b', local: { hops: 1 } }],
  load: { rate: 5, duration: '2s', warmup: '0s', repetitions: 2 },
};

const HUGE = 100_000;
const STACK = /\n\s+at .+:\d+:\d+|\b(TypeError|RangeError|ReferenceError|SyntaxError|Maximum call stack)\b|node:internal/;
/**
 * The schema validator's own phrasing (zod: "Too big: expected number to be <=4", "expected array,
 * received object", "got number 9"): every message is the product's words (issue 54).
 */
const VALIDATOR_TEXT =
  /Too (big|small):|Invalid (input|option|string|element|key|value|union|date|number)\b|Unrecognized key|\bexpected (array|object|number|string|boolean|int|record|nonoptional|tuple|bigint)\b(?! (of|for|or|with)\b)|\breceived (number|string|object|array|boolean|undefined|null)\b|to be [<>]=?|got (number|boolean|string) /;

interface Call {
  name: string;
  args: string[];
  /** The file written as mesh-perf.yaml first, if any. */
  yaml?: string;
  /** What a refusal must name: a field path, a flag, a file. */
  names: RegExp;
}

/** Sets `path` in a copy of `base`, creating objects and one-item lists on the way. */
function withValue(base: unknown, path: (string | number)[], value: unknown): unknown {
  const root = structuredClone(base) as Record<string, unknown>;
  let node: Record<string | number, unknown> = root;
  path.forEach((part, i) => {
    const key = part === '*' ? 'key' : part;
    if (i === path.length - 1) {
      node[key] = value;
      return;
    }
    const nextIsIndex = typeof path[i + 1] === 'number';
    if (node[key] === undefined || node[key] === null || typeof node[key] !== 'object')
      node[key] = nextIsIndex ? [{ ...(key === 'modes' ? { name: 'a' } : {}) }] : {};
    node = node[key] as Record<string | number, unknown>;
  });
  return root;
}

function badValues(schema: JsonSchema): { label: string; value: unknown }[] {
  const type = typeOf(schema);
  const out: { label: string; value: unknown }[] = [
    { label: 'null', value: null },
    { label: 'a list', value: [1, 2] },
  ];
  if (type !== 'object') out.push({ label: 'an object', value: { x: 1 } });
  if (type !== 'string') out.push({ label: 'a string', value: 'nope' });
  if (type !== 'boolean') out.push({ label: 'true', value: true });
  if (type === 'string') {
    out.push({ label: 'a number', value: 42 });
    out.push({ label: 'huge', value: 'a/'.repeat(HUGE / 2) });
    out.push({ label: 'line break', value: 'x\n' });
    if (schema.maxLength !== undefined) out.push({ label: 'one over maxLength', value: 'x'.repeat(schema.maxLength + 1) });
  }
  if (type === 'number' || type === 'integer') {
    out.push(
      { label: '-1', value: -1 },
      { label: '1e308', value: 1e308 },
      { label: 'Infinity', value: Infinity },
      { label: 'NaN', value: NaN },
    );
    if (type === 'integer') out.push({ label: '2.5', value: 2.5 });
    if (schema.maximum !== undefined) out.push({ label: 'maximum + 1', value: schema.maximum + 1 });
  }
  if (type === 'array') {
    // Over the raw-list guard (10,000); YAML parsing is linear, and a loaded CI machine is slow.
    out.push({ label: '12,000 items', value: Array(12_000).fill('x') });
    if (schema.maxItems !== undefined) out.push({ label: 'maxItems + 1', value: Array(schema.maxItems + 1).fill({}) });
    out.push({ label: 'empty', value: [] });
  }
  if (type === 'object') {
    out.push({ label: 'an unknown key', value: { 'no-such-key': 1 } });
    if (schema.maxProperties !== undefined)
      out.push({
        label: 'maxProperties + 1',
        value: Object.fromEntries(Array.from({ length: schema.maxProperties + 1 }, (_, i) => [`k${i}`, 'v'])),
      });
  }
  return out;
}

/** The path or one of its ancestors, as the error prints it. */
function pathPattern(path: (string | number)[]): RegExp {
  const printed = formatPath(path.filter((p) => p !== '*'));
  const first = String(path[0] ?? '');
  const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // load's profile is printed as load or load[0], a list item as [0] of its parent.
  return new RegExp(`${escapeRegExp(first)}|${escapeRegExp(printed)}|top level|mesh-perf\\.yaml`);
}

function configCalls(): Call[] {
  const calls: Call[] = [];
  for (const { path, schema } of schemaNodes()) {
    if (path.length === 0) continue;
    for (const { label, value } of badValues(schema)) {
      const raw = withValue(VALID, path, value);
      calls.push({
        name: `${formatPath(path)} = ${label}`,
        args: ['plan'],
        yaml: stringify(raw, { lineWidth: 0 }),
        names: pathPattern(path),
      });
    }
    if (typeOf(schema) === 'object' && schema.properties) {
      calls.push({
        name: `${formatPath(path)} with an unknown key`,
        args: ['plan'],
        yaml: stringify(withValue(VALID, [...path, 'bogusKey'], 1)),
        // load: [ {...} ] written where one profile is expected is itself the first problem.
        names: path.at(-1) === 0 && path[0] === 'load' ? /load/ : /bogusKey/,
      });
    }
  }
  const base = stringify(VALID);
  const yamlEdges: [string, string][] = [
    ['undefined alias', `${base}x: *nope\n`],
    ['alias bomb', `a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [${'*a,'.repeat(9)}]\nc: &c [${'*b,'.repeat(9)}]\nd: [${'*c,'.repeat(9)}]\n`],
    ['null key', `${base}null: 1\n`],
    ['tilde key', `${base}~: 1\n`],
    ['__proto__', `${base}__proto__: { polluted: 1 }\n`],
    ['constructor key', `${base}constructor: 1\n`],
    ['duplicate key', `${base}suite: again\n`],
    ['two documents', `${base}---\n${base}`],
    ['tab indentation', `modes:\n\t- name: a\n`],
    ['binary', '\u0000\u0001\u0002'],
    ['top-level list', '- a\n- b\n'],
    ['top-level scalar', 'hello\n'],
    ['empty file', ''],
    ['only a comment', '# nothing\n'],
    ['deep nesting', `${base}x: ${'['.repeat(5000)}${']'.repeat(5000)}\n`],
    ['unterminated flow', 'modes: [{ name: a\n'],
    ['unterminated quote', 'suite: "abc\n'],
    ['custom tag', `${base}x: !!js/function "function () {}"\n`],
    ['binary tag', `${base}x: !!binary aGVsbG8=\n`],
    ['merge key of a scalar', `${base}y:\n  <<: 5\n`],
    ['BOM', `\ufeff${base}`],
    ['CRLF', base.replaceAll('\n', '\r\n')],
    ['100,000 keys', `${base}${Array.from({ length: HUGE }, (_, i) => `k${i}: 1`).join('\n')}\n`],
    ['a 900 KB key', `${base}? ${'k'.repeat(900_000)}\n: 1\n`],
    ['a 900 KB value', `${base}x: ${'v'.repeat(900_000)}\n`],
    ['over the file bound', `${base}x: ${'v'.repeat(5_000_000)}\n`],
    ['a 400-digit number', `${base}plan: { seed: ${'9'.repeat(400)} }\n`],
    ['.nan and .inf', `modes: [{ name: a }]\nload: { rate: .nan, repetitions: .inf }\n`],
    ['octal-looking', `modes: [{ name: a }]\nload: { rate: 0o17, duration: 010s }\n`],
    ['a date', `modes: [{ name: a }]\nload: { rate: 5, duration: 2001-12-14 }\n`],
  ];
  for (const [name, yaml] of yamlEdges) calls.push({ name: `YAML: ${name}`, args: ['plan'], yaml, names: /mesh-perf\.yaml|line \d|\w+:/ });
  return calls;
}

/** Commands whose calls can start load or a cluster when the arguments happen to be valid. */
const STARTS_THINGS = new Set(['demo', 'up', 'down']);
const PATH_OPTIONS = new Set(['config', 'out', 'results', 'store', 'baseline', 'kubeconfig', 'history-store']);

function cliCalls(): Call[] {
  const calls: Call[] = [];
  // The flag at fault, or the one whose absence stops the command first (publish without --results,
  // report without --store or --results).
  const flag = (name: string) => new RegExp(`--${name}\\b|--[a-z][a-z-]+|mesh-perf\\.yaml|config file`);
  for (const command of COMMANDS) {
    const c = command.name;
    calls.push({ name: `${c} --no-such-option`, args: [c, '--no-such-option'], names: /--no-such-option/ });
    calls.push({ name: `${c} with extra arguments`, args: [c, 'x', 'y', 'z'], names: /argument|usage|"x"|mesh-perf\.yaml|config file|x/ });
    calls.push({ name: `help ${c}`, args: ['help', c], names: /./ });
    for (const option of command.options) {
      const o = option.name;
      if (!option.value) {
        calls.push({ name: `${c} --${o}=yes`, args: [c, `--${o}=yes`], names: flag(o) });
        continue;
      }
      calls.push({ name: `${c} --${o} (no value)`, args: [c, `--${o}`], names: flag(o) });
      calls.push({ name: `${c} --${o}= (empty)`, args: [c, `--${o}=`], names: flag(o) });
      if (!option.repeatable) calls.push({ name: `${c} --${o} twice`, args: [c, `--${o}`, 'a', `--${o}`, 'b'], names: flag(o) });
      if (STARTS_THINGS.has(c)) continue;
      calls.push({ name: `${c} --${o} huge`, args: [c, `--${o}`, 'x'.repeat(HUGE)], names: flag(o) });
      calls.push({ name: `${c} --${o} starting with a dash`, args: [c, `--${o}=-1e999`], names: flag(o) });
      if (PATH_OPTIONS.has(o)) {
        for (const special of ['/proc/x/y', '/dev/zero', 'a-file/below', 'a-fifo']) {
          // A FIFO as --config blocks until Ctrl-C by design (process substitution works); the
          // signal test covers it.
          if (special === 'a-fifo' && o === 'config') continue;
          calls.push({ name: `${c} --${o} ${special}`, args: [c, `--${o}`, special], names: /./ });
        }
      }
    }
  }
  for (const [a, b] of [
    ['results.json', 'a-fifo'],
    ['results.json', '/dev/zero'],
    ['results.json', '/proc/x'],
    ['results.json', 'results.json'],
    ['a-file', 'results.json'],
  ])
    calls.push({ name: `compare ${a} ${b}`, args: ['compare', a!, b!], names: /./ });
  calls.push({ name: 'help nope', args: ['help', 'nope'], names: /nope/ });
  calls.push({ name: 'an unknown command', args: ['x'.repeat(HUGE)], names: /unknown command/ });
  return calls;
}

const CONFIG_CALLS = configCalls();
const CLI_CALLS = cliCalls();

test('the suite is as large as issue 28 asks: at least 500 configs and 100 CLI calls', () => {
  assert.ok(CONFIG_CALLS.length >= 500, `${CONFIG_CALLS.length} configs`);
  assert.ok(CLI_CALLS.length >= 100, `${CLI_CALLS.length} CLI calls`);
});

async function invoke(args: string[], cwd: string) {
  let stdout = '';
  let stderr = '';
  const started = performance.now();
  const code = await withColumns(100, () =>
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

function check(call: Call, run: Awaited<ReturnType<typeof invoke>>): string | undefined {
  if (![0, 1, 2, 3].includes(run.code)) return `exit ${run.code}`;
  if (STACK.test(run.stderr)) return `stack trace or raw JS error:\n${run.stderr.slice(0, 600)}`;
  if (VALIDATOR_TEXT.test(run.stderr)) return `the validator's words, not the product's:\n${run.stderr.slice(0, 600)}`;
  if (run.ms > 2000) return `took ${run.ms.toFixed(0)} ms`;
  if (run.stderr.length > 10_000) return `a message of ${run.stderr.length} characters`;
  if (run.code !== 0 && !call.names.test(run.stderr)) return `the message names neither ${call.names}:\n${run.stderr.slice(0, 600)}`;
  return undefined;
}

for (const [title, calls] of [
  ['generated configs', CONFIG_CALLS],
  ['generated CLI calls', CLI_CALLS],
] as const) {
  test(`${title} (${calls.length}): exit 0-3, no stack trace, under 2 s, a short message naming the field or flag`, {
    timeout: 600_000,
  }, async () => {
    const root = await mkdtemp(join(tmpdir(), 'mesh-perf-generated-'));
    try {
      const failures: string[] = [];
      execFileSync('mkfifo', [join(root, 'a-fifo')]);
      // Warm the module cache so the first call's time is the call's own.
      await invoke(['plan', '--preset', 'ambient-modes'], root);
      for (const [i, call] of calls.entries()) {
        // A folder per call: one call's files (init writes a config) must not make the next valid.
        const dir = join(root, String(i));
        await mkdir(dir);
        await copyFile(new URL('../github/fixtures/results-local-pass.json', import.meta.url), join(dir, 'results.json'));
        await writeFile(join(dir, 'a-file'), 'not json');
        await symlink(join(root, 'a-fifo'), join(dir, 'a-fifo'));
        if (call.yaml !== undefined) await writeFile(join(dir, 'mesh-perf.yaml'), call.yaml);
        const run = await invoke(call.args, dir);
        const problem = check(call, run);
        if (problem) failures.push(`${call.name}: ${problem}`);
        await rm(dir, { recursive: true, force: true });
      }
      assert.deepEqual(failures, [], `${failures.length} of ${calls.length} failed:\n${failures.map((f) => f.slice(0, 300)).join('\n')}`);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
}
