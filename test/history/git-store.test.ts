// The gh-pages store against real git: a bare repository as the remote.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GitBranchStore } from '../../src/history/git/git-branch-store.ts';
import { findBase } from '../../src/history/lookup.ts';
import { parseRetention } from '../../src/history/retention.ts';
import { INDEX_SCHEMA_VERSION } from '../../src/history/suite-index.ts';
import { loadChartJsSource } from '../../src/report/html/chartjs-source.ts';
import { RESULTS_SCHEMA_VERSION, type RunResult } from '../../src/results/types.ts';
import { packedScript } from '../../src/history/store-scripts.ts';
import { gzipSync } from 'node:zlib';

/** A run file whose content is `json` as it is (damaged on purpose). */
const packedJson = (json: string) => packedScript('run', 1, gzipSync(json).toString('base64'));
import { MeshPerfError } from '../../src/util/errors.ts';
import { buildDailyRuns, buildRunResult } from '../support/results-fixture.ts';
import { bareRepo, branchFiles, branchHead, commitCount, git, pushFiles, showFile, tempDir } from './support/git-repo.ts';
import { gitStore, readIndex, readStoredRun, storedBodyText, storedRunPage } from './support/store-files.ts';

/** Run bodies and their timelines files on a branch (layout 2: runs/<suite>/<year>/<name>.js and .tl.js). */
const isBody = (f: string) => /^runs\/[^/]+\/\d{4}\/.*\.js$/.test(f) && !f.endsWith('.tl.js');
const isTimelines = (f: string) => /^runs\/[^/]+\/\d{4}\/.*\.tl\.js$/.test(f);

function store(url: string, extra: Partial<ConstructorParameters<typeof GitBranchStore>[0]> = {}): GitBranchStore {
  return new GitBranchStore({ url, branch: 'gh-pages', chartJs: loadChartJsSource, ...extra });
}

function exitError(code: number, ...parts: (string | RegExp)[]) {
  return (error: unknown) => {
    assert.ok(error instanceof MeshPerfError, `expected a MeshPerfError, got ${String(error)}`);
    assert.equal(error.exitCode, code, error.message);
    for (const part of parts) {
      if (typeof part === 'string') assert.ok(error.message.includes(part), `message should name ${part}: ${error.message}`);
      else assert.match(error.message, part);
    }
    return true;
  };
}

test('publish creates the branch with runs, index, reports and dashboard; list and lookups read it back', {
  timeout: 120_000,
}, async () => {
  const dir = await tempDir('git-store');
  try {
    const remote = await bareRepo(dir);
    const runs = buildDailyRuns(4, { suite: 'nightly', branch: 'main' });
    runs[2]!.run.git.branch = 'release-1';
    const s = store(remote);
    const outcome = await s.publish(runs);
    assert.equal(outcome.added.length, 4);
    assert.ok(outcome.commit);
    assert.equal(await branchHead(remote, 'gh-pages'), outcome.commit);
    const files = await branchFiles(remote, 'gh-pages');
    for (const f of [
      '.nojekyll',
      'assets/chart.umd.min.js',
      'runs/nightly/change-points.nightly.js',
      'index.html',
      'run.html',
      'mesh-perf.json',
      'runs/nightly/index/2025-01.nightly.js',
    ])
      assert.ok(files.includes(f), f);
    assert.equal(files.filter((f) => isBody(f) && f.startsWith('runs/nightly/2025/')).length, 4);
    assert.equal(files.filter((f) => isTimelines(f) && f.startsWith('runs/nightly/2025/')).length, 4);
    const index = await readIndex(gitStore(remote), 'nightly');
    assert.equal(index.schemaVersion, INDEX_SCHEMA_VERSION);
    assert.deepEqual(
      index.runs.map((r: { id: string }) => r.id),
      runs.map((r) => r.run.id),
    );
    const runFile = await readStoredRun(gitStore(remote), index.runs[0]!.file);
    assert.equal(runFile.schemaVersion, RESULTS_SCHEMA_VERSION);

    const latest = await s.list({ suite: 'nightly', branch: 'main', limit: 2 });
    assert.deepEqual(
      latest.map((r) => r.run.id),
      [runs[3]!.run.id, runs[1]!.run.id],
    );
    assert.deepEqual(
      (await s.list({ suite: 'nightly', branch: 'release-1', limit: 5 })).map((r) => r.run.id),
      [runs[2]!.run.id],
    );
    assert.deepEqual(
      (await s.list({ suite: 'nightly', commit: runs[1]!.run.git.sha! })).map((r) => r.run.id),
      [runs[1]!.run.id],
    );
    assert.deepEqual(await s.list({ suite: 'other' }), []);

    const pr = buildRunResult({
      suite: 'nightly',
      branch: 'feature',
      baseRef: 'main',
      baseSha: runs[0]!.run.git.sha!,
      pullRequest: 7,
      seed: 99,
    });
    const base = await findBase(s, 'nightly', pr.run.git, 5);
    assert.equal(base?.basis, 'base-commit+base-branch', "one base-commit run is pooled with the base branch's latest");
    assert.deepEqual(
      base?.runs.map((r) => r.run.id),
      [runs[0]!.run.id, runs[3]!.run.id, runs[1]!.run.id],
      'the merge base first, then the newest others',
    );
    const one = await findBase(s, 'nightly', pr.run.git, 1);
    assert.equal(one?.basis, 'base-commit');
    assert.deepEqual(
      one?.runs.map((r) => r.run.id),
      [runs[0]!.run.id],
    );
    const unmeasured = await findBase(s, 'nightly', { ...pr.run.git, baseSha: 'f'.repeat(40) }, 5);
    assert.equal(unmeasured?.basis, 'base-branch-latest');
    assert.deepEqual(
      unmeasured?.runs.map((r) => r.run.id),
      [runs[3]!.run.id, runs[1]!.run.id, runs[0]!.run.id],
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('against a server that allows partial clone (as GitHub does): publish, list and damage detection work with blob-less fetches', {
  timeout: 120_000,
}, async () => {
  const dir = await tempDir('git-store');
  try {
    const remote = await bareRepo(dir);
    await git(remote, 'config', 'uploadpack.allowFilter', 'true');
    const runs = buildDailyRuns(3, { suite: 'nightly' });
    await store(remote).publish(runs.slice(0, 2));
    const outcome = await store(remote).publish([runs[2]!]);
    assert.equal(outcome.added.length, 1);
    const listed = await store(remote).list({ suite: 'nightly', limit: 2 });
    assert.deepEqual(
      listed.map((r) => r.run.id),
      [runs[2]!.run.id, runs[1]!.run.id],
    );
    assert.equal(listed[0]!.modes.length, runs[2]!.modes.length, 'run files are read in full through lazy fetches');
    const files = await branchFiles(remote, 'gh-pages');
    const runFile = files.find((f) => isBody(f) && f.includes('/2025/'))!;
    await pushFiles(remote, 'gh-pages', { [runFile]: 'garbage' });
    await assert.rejects(
      store(remote).publish(buildDailyRuns(1, { suite: 'nightly', start: new Date(Date.UTC(2025, 3, 1)) })),
      exitError(3, runFile),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('publishing the same run again changes nothing; a new run is one more commit', { timeout: 120_000 }, async () => {
  const dir = await tempDir('git-store');
  try {
    const remote = await bareRepo(dir);
    const [a, b] = buildDailyRuns(2, { suite: 'nightly' });
    const s = store(remote);
    await s.publish([a!]);
    const head = await branchHead(remote, 'gh-pages');
    const again = await s.publish([a!]);
    assert.equal(again.commit, undefined);
    assert.equal(again.unchanged.length, 1);
    assert.equal(await branchHead(remote, 'gh-pages'), head);
    await s.publish([b!]);
    assert.equal(await commitCount(remote, 'gh-pages'), 2);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('retention prunes run files and compacts the index in the same commit', { timeout: 120_000 }, async () => {
  const dir = await tempDir('git-store');
  try {
    const remote = await bareRepo(dir);
    const runs = buildDailyRuns(6, { suite: 'nightly' });
    await store(remote).publish(runs.slice(0, 5));
    const before = await commitCount(remote, 'gh-pages');
    const outcome = await store(remote, { retention: parseRetention('3runs') }).publish([runs[5]!]);
    assert.equal(outcome.pruned.length, 3);
    assert.equal(await commitCount(remote, 'gh-pages'), before + 1);
    const files = await branchFiles(remote, 'gh-pages');
    assert.equal(files.filter((f) => isBody(f) && f.includes('/2025/')).length, 3);
    assert.equal(files.filter((f) => isTimelines(f) && f.includes('/2025/')).length, 3);
    const index = await readIndex(gitStore(remote), 'nightly');
    assert.deepEqual(
      index.runs.map((r: { id: string }) => r.id),
      runs.slice(3).map((r) => r.run.id),
    );

    const byAge = await store(remote, { retention: parseRetention('1d'), now: () => new Date(runs[5]!.run.startedAt) }).publish([runs[5]!]);
    assert.equal(byAge.pruned.length, 1, 'runs older than 1 day before "now" go');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('timeline retention stores older runs without per-second timelines, in the publishing commit', { timeout: 120_000 }, async () => {
  const dir = await tempDir('git-store');
  try {
    const remote = await bareRepo(dir);
    const runs = buildDailyRuns(4, { suite: 'nightly', durationS: 10 });
    const s = store(remote, { timelineRetention: parseRetention('2runs') });
    for (const run of runs) await s.publish([run]);
    const index = await readIndex(gitStore(remote), 'nightly');
    assert.deepEqual(
      index.runs.map((r: { tl: boolean }) => r.tl),
      [false, false, true, true],
    );
    for (const [i, entry] of index.runs.entries()) {
      const stored = await readStoredRun(gitStore(remote), entry.file);
      const points = stored.modes.flatMap((m: { repetitions: { timeline: unknown[] }[] }) => m.repetitions.map((r) => r.timeline.length));
      assert.deepEqual([...new Set(points)], [i < 2 ? 0 : 10], `run ${i}`);
      assert.equal(
        stored.modes[0]!.repetitions[0]!.latencyMs!.p50,
        runs[i]!.modes[0]!.repetitions[0]!.latencyMs!.p50,
        'run-level figures stay',
      );
      const report = await storedRunPage(gitStore(remote), entry.file);
      assert.equal(report.includes('No per-second timeline in this copy'), i < 2, `report ${i}`);
    }
    assert.equal(await commitCount(remote, 'gh-pages'), 4, 'compaction rides along with the publish commits');
    const [full] = await s.list({ suite: 'nightly', commit: runs[0]!.run.git.sha! });
    assert.equal(full!.modes[0]!.repetitions[0]!.timeline.length, 0);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a corrupted run file, index or marker on the branch stops publish with exit 3 naming the file; branch unchanged', {
  timeout: 180_000,
}, async () => {
  const dir = await tempDir('git-store');
  try {
    const remote = await bareRepo(dir);
    const [a, b, c] = buildDailyRuns(3, { suite: 'nightly' });
    await store(remote).publish([a!, b!]);
    const files = await branchFiles(remote, 'gh-pages');
    const runFile = files.find((f) => isBody(f) && f.includes('/2025/'))!;
    const shard = 'runs/nightly/index/2025-01.nightly.js';

    const damages: { path: string; content: string; expect: RegExp }[] = [
      { path: runFile, content: packedJson('{"schemaVersion": 1, "modes": ['), expect: /not valid JSON/ },
      {
        path: runFile,
        content: storedBodyText({ ...a!, schemaVersion: RESULTS_SCHEMA_VERSION + 1 }),
        expect: /newer than this mesh-perf understands/,
      },
      {
        path: shard,
        content: 'meshPerfStore.index({"schemaVersion":3,"kind":"mesh-perf-suite-index","suite":"nightly","runs":[);\n',
        expect: /not valid JSON/,
      },
      {
        path: shard,
        content: `meshPerfStore.index(${JSON.stringify({ schemaVersion: 99, kind: 'mesh-perf-suite-index', suite: 'nightly', month: '2025-01', runs: [] })});\n`,
        expect: /schemaVersion 99/,
      },
      { path: 'mesh-perf.json', content: 'not json;', expect: /not valid JSON/ },
    ];
    for (const damage of damages) {
      const good = await showFile(remote, 'gh-pages', damage.path);
      await pushFiles(remote, 'gh-pages', { [damage.path]: damage.content }, `damage ${damage.path}`);
      const head = await branchHead(remote, 'gh-pages');
      await assert.rejects(store(remote).publish([c!]), exitError(3, damage.path, damage.expect));
      assert.equal(await branchHead(remote, 'gh-pages'), head, `branch moved after refusing ${damage.path}`);
      await assert.rejects(store(remote).list({ suite: 'nightly' }), exitError(3, damage.path));
      await pushFiles(remote, 'gh-pages', { [damage.path]: good }, `restore ${damage.path}`);
    }
    const ok = await store(remote).publish([c!]);
    assert.equal(ok.added.length, 1, 'restored branch accepts the publish again');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a deleted index is rebuilt from the run files; a run file edited by hand is re-read', { timeout: 120_000 }, async () => {
  const dir = await tempDir('git-store');
  try {
    const remote = await bareRepo(dir);
    const runs = buildDailyRuns(3, { suite: 'nightly' });
    await store(remote).publish(runs.slice(0, 2));
    const work = await tempDir('clone');
    await git(work, 'clone', '--quiet', '--branch', 'gh-pages', remote, '.');
    await git(work, 'rm', '-r', '--quiet', 'runs/nightly/index');
    await git(work, 'commit', '--quiet', '-m', 'drop index');
    await git(work, 'push', '--quiet', 'origin', 'gh-pages');
    await rm(work, { recursive: true, force: true });
    const outcome = await store(remote).publish([runs[2]!]);
    assert.ok(
      outcome.warnings.some((w) => w.includes('rebuilding it from the run files')),
      outcome.warnings.join('\n'),
    );
    const index = await readIndex(gitStore(remote), 'nightly');
    assert.deepEqual(
      index.runs.map((r: { id: string }) => r.id),
      runs.map((r) => r.run.id),
    );

    const edited = { ...runs[0]!, verdict: 'fail', verdictReasons: ['marked failed by hand'] } as RunResult;
    await pushFiles(remote, 'gh-pages', { [index.runs[0]!.file]: storedBodyText(edited) }, 'hand edit');
    const [d] = buildDailyRuns(1, { suite: 'nightly', start: new Date(Date.UTC(2025, 5, 1)) });
    await store(remote).publish([d!]);
    const reindexed = await readIndex(gitStore(remote), 'nightly');
    assert.equal(reindexed.runs[0]!.verdict, 'fail', 'the edited run file was re-read and re-indexed');
    assert.match(await storedRunPage(gitStore(remote), index.runs[0]!.file), /marked failed by hand/, 'and its report re-rendered');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('bad store locations: not a git repository, a branch of unrelated files (unless --adopt); nothing written', {
  timeout: 120_000,
}, async () => {
  const dir = await tempDir('git-store');
  try {
    const [a] = buildDailyRuns(1, { suite: 'nightly' });
    await mkdir(join(dir, 'plain'));
    await writeFile(join(dir, 'plain', 'x.txt'), 'hello');
    await assert.rejects(store(`file://${join(dir, 'plain')}`).publish([a!]), exitError(2, 'not a git repository', 'Nothing was written'));
    await assert.rejects(store(`file://${join(dir, 'missing.git')}`).publish([a!]), exitError(2, 'not a git repository'));

    const remote = await bareRepo(dir);
    await pushFiles(remote, 'gh-pages', { 'index.html': '<h1>my project site</h1>', 'docs/guide.md': '# guide' }, 'project site');
    const head = await branchHead(remote, 'gh-pages');
    await assert.rejects(store(remote).publish([a!]), exitError(2, 'not a mesh-perf history', '--adopt', 'docs/guide.md'));
    assert.equal(await branchHead(remote, 'gh-pages'), head);

    const adopted = await store(remote, { adopt: true }).publish([a!]);
    assert.equal(adopted.added.length, 1);
    const files = await branchFiles(remote, 'gh-pages');
    assert.ok(files.includes('docs/guide.md'), 'adopting keeps the files that were there');
    assert.ok(files.includes('mesh-perf.json'));
    assert.equal(await showFile(remote, 'gh-pages', 'index.html'), '<h1>my project site</h1>', 'their index.html is left alone');
    assert.ok(files.includes('mesh-perf-dashboard.html'), 'the dashboard moves aside');
    assert.equal(JSON.parse(await showFile(remote, 'gh-pages', 'mesh-perf.json')).dashboard, 'mesh-perf-dashboard.html');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a history branch protected against the push: exit 3 naming the branch and what to allow; nothing written', {
  timeout: 120_000,
}, async () => {
  const dir = await tempDir('git-store');
  try {
    const [a] = buildDailyRuns(1, { suite: 'nightly' });
    const remote = await bareRepo(dir);
    // GitHub's branch protection refuses in a pre-receive hook with this text (GH006); a real
    // git server with a real hook says the same here.
    const hook = join(remote, 'hooks', 'pre-receive');
    await writeFile(
      hook,
      '#!/bin/sh\nwhile read old new ref; do\n  echo "error: GH006: Protected branch update failed for $ref." >&2\ndone\nexit 1\n',
    );
    await chmod(hook, 0o755);
    await assert.rejects(
      store(remote, { branch: 'perf-history' }).publish([a!]),
      exitError(
        3,
        'rejected the push to branch perf-history',
        'GH006: Protected branch update failed for refs/heads/perf-history',
        'bypass list',
        'contents: write',
        'Nothing was written',
      ),
    );
    assert.equal(await branchHead(remote, 'perf-history'), undefined);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
