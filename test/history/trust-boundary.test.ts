// Results become trusted where they are read, and a history store is read on every publish and
// rebuild: a run the results schema refuses is never stored, and a stored file that no longer
// matches it stops the rebuild, both naming the file and the field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DirectoryStore } from '../../src/history/directory-store.ts';
import { EXIT, exitCodeOf } from '../../src/util/errors.ts';
import { buildDailyRuns } from '../support/results-fixture.ts';
import { tempDir } from './support/git-repo.ts';
import { storedBodyText } from './support/store-files.ts';
import { readBody } from '../../src/history/stored-run.ts';

const chartJs = async () => '/* chart.js */';

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

test('publish refuses a run the results schema refuses, naming its file and the field; nothing is stored', async () => {
  const root = join(await tempDir('trust-publish'), 'site');
  const [good, bad] = buildDailyRuns(2, { suite: 'nightly' });
  (bad!.modes[0]!.repetitions[0] as unknown as Record<string, unknown>).achievedRps = 'fast';
  const store = new DirectoryStore({ root, chartJs });
  await assert.rejects(store.publish([good!, bad!]), (error: Error) => {
    assert.match(
      error.message,
      new RegExp(`runs/nightly/[^ ]*${suffixOf(bad!.run.id)}[^ ]*\\.js: field modes\\.0\\.repetitions\\.0\\.achievedRps: `),
    );
    assert.equal(exitCodeOf(error), EXIT.usage);
    return true;
  });
  assert.deepEqual(await filesUnder(root), [], 'atomic: not even the valid run was written');
});

test('rebuild stops at a stored run file that no longer matches the schema, naming the file and the field', async () => {
  const root = join(await tempDir('trust-rebuild'), 'site');
  const runs = buildDailyRuns(2, { suite: 'nightly' });
  const store = new DirectoryStore({ root, chartJs });
  await store.publish(runs);
  const file = (await filesUnder(join(root, 'runs', 'nightly'))).find(
    (f) => f.endsWith('.js') && !f.endsWith('.tl.js') && f.includes(suffixOf(runs[1]!.run.id)),
  )!;
  const stored = readBody(await readFile(file, 'utf8'), file);
  (stored.modes[0]!.repetitions[0] as unknown as Record<string, unknown>).valid = 'yes';
  await writeFile(file, storedBodyText(stored));
  await assert.rejects(store.rebuild(), (error: Error) => {
    const relative = file.slice(root.length + 1);
    assert.ok(error.message.includes(`${relative} field modes.0.repetitions.0.valid: `), error.message);
    assert.equal(exitCodeOf(error), EXIT.environment);
    return true;
  });
});

/** Stored run files carry one timestamp, the start's, and the id's random suffix (not the id's own stamp). */
function suffixOf(runId: string): string {
  return `-${runId.split('-').pop()}`;
}
