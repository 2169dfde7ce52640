// The CLI as a user installs it: `npm pack` of this repository, installed with `npm install -g`
// (into a prefix of its own) from the tarball alone, offline, and run by its name from an empty
// folder: `mesh-perf --help`, `mesh-perf init` then `mesh-perf plan`, and `mesh-perf demo` end to
// end (real echo servers, a real proxy hop, real k6).
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { delimiter, join, resolve } from 'node:path';
import { testTempDir } from '../support/temp-dirs.ts';
import { schemaProblems } from '../support/schema.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
let prefix: string;
let home: string;

before(() => {
  const dir = testTempDir('packed');
  const packs = join(dir, 'packs');
  mkdirSync(packs);
  execFileSync('npm', ['pack', '--pack-destination', packs, '--ignore-scripts', '--silent'], { cwd: ROOT, stdio: 'ignore' });
  const [tarball] = readdirSync(packs);
  assert.match(tarball ?? '', /^mesh-perf-\d+\.\d+\.\d+\.tgz$/);
  prefix = join(dir, 'prefix');
  // --offline: the package has no dependencies, so the tarball alone installs it.
  execFileSync('npm', ['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', join(packs, tarball!)], {
    cwd: dir,
    stdio: 'ignore',
  });
  home = join(dir, 'home');
  mkdirSync(home);
});

/** `mesh-perf ARGS` by name, as a shell would find it on PATH after `npm install -g`, in `cwd`. */
function meshPerf(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, reject) => {
    const child = spawn('mesh-perf', args, {
      cwd,
      env: { ...process.env, PATH: `${join(prefix, 'bin')}${delimiter}${process.env.PATH ?? ''}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), 240_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(killer);
      done({ code, stdout, stderr });
    });
  });
}

const emptyFolder = (name: string) => {
  const dir = join(home, name);
  mkdirSync(dir);
  return dir;
};

test('the packed package, installed with npm install -g, runs as mesh-perf: --help lists the commands', async () => {
  const help = await meshPerf(['--help'], emptyFolder('help'));
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /^Usage: mesh-perf <command> \[options\]$/m);
  for (const command of ['demo', 'init', 'run', 'plan', 'publish']) assert.match(help.stdout, new RegExp(`^ {2}${command} `, 'm'));
  const version = await meshPerf(['--version'], emptyFolder('version'));
  assert.equal(version.stdout.trim(), JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')).version);
});

test("in a clone, npx mesh-perf runs the clone's own build, offline: --version, init and plan as README writes them", async () => {
  const dir = emptyFolder('npx');
  const npx = (args: string[]) =>
    execFileSync('npx', ['--offline', 'mesh-perf', ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
  assert.equal(npx(['--version']).trim(), JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')).version);
  // Under npx, init says what to type next as npx.
  assert.match(npx(['init', '--config', join(dir, 'mesh-perf.yaml')]), /^Next: npx mesh-perf plan --config /m);
  assert.match(npx(['plan', '--config', join(dir, 'mesh-perf.yaml')]), /trials, interleaved, seed \d+/);
});

test('mesh-perf init && mesh-perf plan in an empty folder: the written config plans, its schema path resolves in the package', async () => {
  const dir = emptyFolder('init');
  const init = await meshPerf(['init'], dir);
  assert.equal(init.code, 0, init.stderr);
  const config = await readFile(join(dir, 'mesh-perf.yaml'), 'utf8');
  const schema = /\$schema=(\S+)/.exec(config)?.[1];
  assert.ok(schema, config);
  // The schema the editor comment names is the installed package's own.
  assert.equal(JSON.parse(await readFile(resolve(dir, schema!), 'utf8')).title, 'mesh-perf.yaml');
  const plan = await meshPerf(['plan'], dir);
  assert.equal(plan.code, 0, plan.stderr);
  assert.match(plan.stdout, /trials, interleaved, seed \d+/);
});

test('mesh-perf demo from the installed package writes schema-valid results (--out) in one wide table (--wide) and shows the proxy hop costs something', {
  timeout: 240_000,
}, async () => {
  const dir = emptyFolder('demo');
  const run = await meshPerf(['demo', '--out', 'demo-out', '--wide'], dir);
  assert.equal(run.code, 0, run.stderr + run.stdout);
  const results = JSON.parse(await readFile(join(dir, 'demo-out/results.json'), 'utf8'));
  assert.deepEqual(schemaProblems(results), []);
  assert.equal(results.schemaVersion >= 1, true);
  assert.equal(results.verdict, 'pass');
  assert.equal(results.baseline, 'direct');
  assert.ok(results.run.machine.cores >= 1 && results.run.machine.cpuModel.length > 0);
  assert.match(results.run.tools.k6, /^1\.\d+\.\d+$/);
  const p50 = (name: string) => {
    const reps = results.modes
      .find((m: { name: string }) => m.name === name)
      .repetitions.map((r: { latencyMs: { p50: number } }) => r.latencyMs.p50)
      .sort((a: number, b: number) => a - b);
    return reps[1];
  };
  assert.ok(p50('one-proxy-hop') > p50('direct'), `one-proxy-hop p50 ${p50('one-proxy-hop')} should exceed direct ${p50('direct')}`);
  const summary = await readFile(join(dir, 'demo-out/summary.md'), 'utf8');
  assert.match(summary, /\| 300rps \| one-proxy-hop \|/);
  assert.match(run.stdout, /one-proxy-hop .* \+\d/, 'the table shows a positive overhead');
  // --wide: every column in one table (the default width would split it in two).
  assert.equal(run.stdout.split('\n').filter((l) => /^mode\s/.test(l)).length, 1, run.stdout);
  for (const heading of ['Preparing platform', 'Measuring 6 repetitions', 'Tearing down']) assert.match(run.stderr, new RegExp(heading));
});
