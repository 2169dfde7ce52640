// A published run's files carry its start time once: run ids mesh-perf makes already begin with a
// timestamp, and the store's names used to prefix another ("…085341Z-20261123T085341Z-fde4e3").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DirectoryStore } from '../../src/history/directory-store.ts';
import { newRunId } from '../../src/pipeline.ts';
import { loadChartJsSource } from '../../src/report/html/chartjs-source.ts';
import { buildRunResult } from '../support/results-fixture.ts';
import { tempDir } from './support/git-repo.ts';
import { folderStore, readIndex } from './support/store-files.ts';

const startedAt = new Date(Date.UTC(2026, 10, 23, 8, 53, 41, 250));

async function runFiles(root: string): Promise<string[]> {
  return (await readdir(join(root, 'runs/s/2026'))).sort();
}

test('a run with a mesh-perf id is stored as <stamp>-<random>.js/.tl.js, one timestamp', async () => {
  const dir = await tempDir('run-names');
  try {
    const root = join(dir, 'store');
    const id = newRunId(startedAt);
    assert.match(id, /^20261123T085341Z-[0-9a-f]{6}$/);
    const run = buildRunResult({ suite: 's', startedAt, id });
    await new DirectoryStore({ root, chartJs: loadChartJsSource }).publish([run]);
    const random = id.slice('20261123T085341Z-'.length);
    assert.deepEqual(await runFiles(root), [`20261123T085341Z-${random}.js`, `20261123T085341Z-${random}.tl.js`]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a run stored under the old doubled name is moved, not duplicated, when published again', async () => {
  const dir = await tempDir('run-names');
  try {
    const root = join(dir, 'store');
    const id = newRunId(startedAt);
    const run = buildRunResult({ suite: 's', startedAt, id });
    const store = new DirectoryStore({ root, chartJs: loadChartJsSource });
    await store.publish([run]);
    // Rewrite the store as an earlier version left it.
    const [body, timelines] = await runFiles(root);
    const old = (name: string) => `20261123T085341Z-${id}${name.slice(name.indexOf('.'))}`;
    await rename(join(root, 'runs/s/2026', body!), join(root, 'runs/s/2026', old(body!)));
    await rename(join(root, 'runs/s/2026', timelines!), join(root, 'runs/s/2026', old(timelines!)));
    const indexPath = join(root, 'runs/s/index/2026-11.s.js');
    const index = await readFile(indexPath, 'utf8');
    await writeFile(indexPath, index.replaceAll(`runs/s/2026/${body}`, `runs/s/2026/${old(body!)}`));
    const changed = { ...run, verdictReasons: [...run.verdictReasons, 'republished'] };
    await store.publish([changed]);
    assert.deepEqual(await runFiles(root), [body, timelines]);
    const after = await readIndex(folderStore(root), 's');
    assert.deepEqual(
      after.runs.map((e) => e.file),
      [`runs/s/2026/${body}`],
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
