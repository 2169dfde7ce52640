// `mesh-perf report` and `mesh-perf publish` through the CLI's own entry (argv → exit code), in
// process, against real files and a real git repository.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { main, type CliIo } from '../../src/cli/main.ts';
import { silentLogger } from '../../src/util/log.ts';
import { buildDailyRuns, buildRunResult } from '../support/results-fixture.ts';
import { bareRepo, branchFiles, branchHead, git, tempDir } from '../history/support/git-repo.ts';

async function cli(argv: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    log: silentLogger,
    cwd,
    signal: new AbortController().signal,
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

test('report --results writes report.html and the exports next to results.json; --format prints one', { timeout: 60_000 }, async () => {
  const dir = await tempDir('report-cmd');
  try {
    const run = join(dir, 'run');
    await mkdir(run);
    await writeFile(join(run, 'results.json'), JSON.stringify(buildRunResult({ suite: 'nightly', modes: ['baseline', 'linkerd'] })));
    const written = await cli(['report', '--results', run], dir);
    assert.equal(written.code, 0, written.stderr);
    for (const f of ['report.html', 'results.csv', 'results.md', 'results.txt']) assert.ok(await exists(join(run, f)), f);
    assert.match(await readFile(join(run, 'report.html'), 'utf8'), /<script>[\s\S]*Chart/);
    const csv = await cli(['report', '--results', join(run, 'results.json'), '--format', 'csv'], dir);
    assert.equal(csv.code, 0);
    assert.match(csv.stdout, /^,baseline,linkerd,$/m);
    const bad = await cli(['report', '--results', run, '--format', 'xlsx'], dir);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /"xlsx" is not one of csv, md, txt/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('report --store rebuilds the branch in place (one commit) or exports it as a site with --out', { timeout: 120_000 }, async () => {
  const dir = await tempDir('report-cmd');
  try {
    const remote = await bareRepo(dir);
    const runs = buildDailyRuns(3, { suite: 'nightly' });
    for (const [i, r] of runs.entries()) {
      await mkdir(join(dir, `r${i}`));
      await writeFile(join(dir, `r${i}`, 'results.json'), JSON.stringify(r));
    }
    const published = await cli(
      ['publish', '--results', join(dir, 'r0'), '--results', join(dir, 'r1'), '--results', join(dir, 'r2'), '--store', remote],
      dir,
    );
    assert.equal(published.code, 0, published.stderr);
    assert.match(published.stdout, /3 runs published/);

    const site = join(dir, 'site');
    const exported = await cli(['report', '--store', remote, '--out', site], dir);
    assert.equal(exported.code, 0, exported.stderr);
    assert.match(exported.stdout, /3 runs in 1 suite\(s\), dashboard .*index\.html, each run's report at .*run\.html#run=/);
    const files = await branchFiles(remote, 'gh-pages');
    for (const f of files) assert.ok(await exists(join(site, f)), `exported ${f}`);

    const untouched = await branchHead(remote, 'gh-pages');
    const noop = await cli(['report', '--store', remote], dir);
    assert.equal(noop.code, 0, noop.stderr);
    assert.equal(await branchHead(remote, 'gh-pages'), untouched, 'nothing to rebuild: no commit');

    // The run page (every run's report) deleted by hand comes back with the next rebuild.
    const report = files.find((f) => f === 'run.html')!;
    const work = await tempDir('clone');
    await git(work, 'clone', '--quiet', '--branch', 'gh-pages', remote, '.');
    await git(work, 'rm', '--quiet', report);
    await git(work, 'commit', '--quiet', '-m', 'lose a report');
    await git(work, 'push', '--quiet', 'origin', 'gh-pages');
    await rm(work, { recursive: true, force: true });
    const rebuilt = await cli(['report', '--store', remote], dir);
    assert.equal(rebuilt.code, 0, rebuilt.stderr);
    assert.match(rebuilt.stdout, /1 file\(s\) rewritten, commit [0-9a-f]{12}/);
    assert.ok((await branchFiles(remote, 'gh-pages')).includes(report));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('publish and report refuse bad input with exit 2, naming what was wrong', { timeout: 60_000 }, async () => {
  const dir = await tempDir('report-cmd');
  try {
    await writeFile(join(dir, 'broken.json'), '{"schemaVersion": 1,');
    await writeFile(join(dir, 'ok.json'), JSON.stringify(buildRunResult()));
    const cases: { argv: string[]; message: RegExp }[] = [
      { argv: ['publish', '--results', join(dir, 'broken.json'), '--store', join(dir, 'h')], message: /broken\.json: is not valid JSON/ },
      { argv: ['publish', '--results', join(dir, 'missing'), '--store', join(dir, 'h')], message: /--results .*missing does not exist/ },
      { argv: ['publish', '--results', join(dir, 'ok.json')], message: /no history store: pass --store/ },
      {
        argv: ['publish', '--results', join(dir, 'ok.json'), '--store', join(dir, 'h'), '--keep', '1y'],
        message: /--keep: expected "<N>d".*got "1y"/,
      },
      {
        argv: ['publish', '--results', join(dir, 'ok.json'), '--store', join(dir, 'h'), '--keep-timelines', 'forever'],
        message: /--keep-timelines: expected .*"none", got "forever"/,
      },
      {
        argv: ['publish', '--results', join(dir, 'ok.json'), '--store', join(dir, 'h'), '--suite', '../etc'],
        message: /suite name "\.\.\/etc" cannot be used as a folder/,
      },
      { argv: ['report'], message: /pass either --store .* or --results/ },
      { argv: ['report', '--store', join(dir, 'h'), '--results', join(dir, 'ok.json')], message: /not both/ },
    ];
    for (const c of cases) {
      const out = await cli(c.argv, dir);
      assert.equal(out.code, 2, `${c.argv.join(' ')}: ${out.stderr}`);
      // Errors wrap at the terminal width (100 here): read the message unwrapped.
      assert.match(out.stderr.replace(/\n {2}/g, ' '), c.message, c.argv.join(' '));
    }
    assert.equal(await exists(join(dir, 'h')), false, 'nothing was created');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
