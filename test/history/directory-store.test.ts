// The folder backend: same layout and checks as the branch, written atomically, safe for
// concurrent local writers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, rm, writeFile, mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DirectoryStore } from '../../src/history/directory-store.ts';
import { openStore } from '../../src/history/open-store.ts';
import { GitBranchStore } from '../../src/history/git/git-branch-store.ts';
import { loadChartJsSource } from '../../src/report/html/chartjs-source.ts';
import { MeshPerfError } from '../../src/util/errors.ts';
import { buildDailyRuns } from '../support/results-fixture.ts';
import { bareRepo, tempDir } from './support/git-repo.ts';
import { folderStore, readIndex } from './support/store-files.ts';

async function files(root: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(join(root, rel), { withFileTypes: true })) {
    const path = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await files(root, path)));
    else out.push(path);
  }
  return out.sort();
}

test('directory store: publish, list newest first, idempotent republish, concurrent writers', { timeout: 120_000 }, async () => {
  const dir = await tempDir('dir-store');
  try {
    const root = join(dir, 'history');
    const store = new DirectoryStore({ root, chartJs: loadChartJsSource });
    const runs = buildDailyRuns(6, { suite: 'local' });
    await store.publish(runs.slice(0, 2));
    const again = await store.publish(runs.slice(0, 2));
    assert.equal(again.added.length, 0);
    assert.equal(again.unchanged.length, 2);
    await Promise.all(runs.slice(2).map((r) => new DirectoryStore({ root, chartJs: loadChartJsSource }).publish([r])));
    const listed = await store.list({ suite: 'local' });
    assert.deepEqual(
      listed.map((r) => r.run.id),
      runs.map((r) => r.run.id).reverse(),
    );
    const all = await files(root);
    assert.equal(all.filter((f) => /^runs\/local\/2025\/.*\.js$/.test(f) && !f.endsWith('.tl.js')).length, 6);
    assert.ok(!all.some((f) => f.includes('.tmp-') || f.includes('.lock')), all.join('\n'));
    const index = await readIndex(folderStore(root), 'local');
    assert.equal(index.runs.length, 6);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('directory store: a damaged run file stops publish (exit 3, file named) and nothing is written', { timeout: 60_000 }, async () => {
  const dir = await tempDir('dir-store');
  try {
    const root = join(dir, 'history');
    const store = new DirectoryStore({ root, chartJs: loadChartJsSource });
    const [a, b] = buildDailyRuns(2, { suite: 'local' });
    await store.publish([a!]);
    const runFile = (await files(root)).find((f) => f.endsWith('.js') && !f.endsWith('.tl.js') && f.includes('/2025/'))!;
    await writeFile(join(root, runFile), '{"truncated":');
    const before = await files(root);
    await assert.rejects(
      store.publish([b!]),
      (e: unknown) => e instanceof MeshPerfError && e.exitCode === 3 && e.message.includes(runFile),
    );
    assert.deepEqual(await files(root), before);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('directory store refuses a non-empty folder that is not a store unless adopted', { timeout: 60_000 }, async () => {
  const dir = await tempDir('dir-store');
  try {
    const root = join(dir, 'somewhere');
    await mkdir(root);
    await writeFile(join(root, 'notes.txt'), 'mine');
    const [a] = buildDailyRuns(1, { suite: 'local' });
    await assert.rejects(
      new DirectoryStore({ root, chartJs: loadChartJsSource }).publish([a!]),
      (e: unknown) => e instanceof MeshPerfError && e.exitCode === 2 && e.message.includes('--adopt'),
    );
    assert.deepEqual(await files(root), ['notes.txt']);
    await new DirectoryStore({ root, chartJs: loadChartJsSource, adopt: true }).publish([a!]);
    assert.equal(await readFile(join(root, 'notes.txt'), 'utf8'), 'mine');
    assert.ok((await stat(join(root, 'mesh-perf.json'))).isFile());
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('openStore: URLs and git repositories are branch stores, other paths are folders', async () => {
  const dir = await tempDir('open-store');
  try {
    const bare = await bareRepo(dir);
    const chartJs = loadChartJsSource;
    const table: { spec: string; kind: 'git' | 'dir' }[] = [
      { spec: 'https://github.com/org/repo.git', kind: 'git' },
      { spec: 'git@github.com:org/repo.git', kind: 'git' },
      { spec: `file://${bare}`, kind: 'git' },
      { spec: bare, kind: 'git' },
      { spec: join(dir, 'new-folder'), kind: 'dir' },
      { spec: 'relative/history', kind: 'dir' },
    ];
    for (const row of table) {
      const store = openStore(row.spec, { chartJs, cwd: dir });
      assert.equal(store instanceof GitBranchStore ? 'git' : 'dir', row.kind, row.spec);
    }
    assert.doesNotMatch(openStore('https://user:secret@example.com/r.git', { chartJs }).describe(), /secret/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('keepTimelines "none": runs are stored without per-second timelines from the start', { timeout: 60_000 }, async () => {
  const dir = await tempDir('dir-store');
  try {
    const { parseTimelineRetention } = await import('../../src/history/retention.ts');
    const root = join(dir, 'history');
    const store = new DirectoryStore({ root, chartJs: loadChartJsSource, timelineRetention: parseTimelineRetention('none')! });
    const [run] = buildDailyRuns(1, { suite: 'local' });
    await store.publish([run!]);
    const [stored] = await store.list({ suite: 'local' });
    assert.ok(stored!.modes.every((m) => m.repetitions.every((r) => r.timeline.length === 0)));
    assert.equal(
      stored!.modes[0]!.repetitions[0]!.latencyMs!.p99,
      Number(run!.modes[0]!.repetitions[0]!.latencyMs!.p99.toPrecision(6)),
      'run-level figures stay (stored to 6 significant digits)',
    );
    const index = await readIndex(folderStore(root), 'local');
    assert.equal(index.runs[0]!.tl, false);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
