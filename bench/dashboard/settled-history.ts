// Benchmark: the git history one suite's settled-months file (src/history/settled.ts) adds over 3
// years of daily publishes, without seeding a whole branch (bench/dashboard/run.ts seeds one; a
// branch seeded before this file existed holds none of it). Each day the file is made as a publish
// makes it (the boundary after the day's run, the months that settled summed in), committed when
// it changed, one commit a day, into a bare repository of its own; then `git gc` packs it as a
// branch is packed, and the packed size of its versions is what it costs a clone. Figures are the
// bench's shape of one suite (synthetic index entries of test/history/support/scale-store.ts: 4
// profiles × 5 modes, every 11th run on a release branch, timelines kept 30 days).
// Usage: npx tsx bench/dashboard/settled-history.ts [--days 1095]
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { monthOf } from '../../src/history/layout.ts';
import { emptySettled, type Settled, serializeSettled, settle, settledBoundary } from '../../src/history/settled.ts';
import { type IndexEntry, parseShard } from '../../src/history/suite-index.ts';
import { tempDir } from '../../test/history/support/git-repo.ts';
import { buildScaleStore, SCALE_SHAPE } from '../../test/history/support/scale-store.ts';
import { git, kib } from './measure.ts';

const { values } = parseArgs({ options: { days: { type: 'string', default: '1095' } } });
const days = Number(values.days);
const files = buildScaleStore({ ...SCALE_SHAPE, days, suites: 1 }, 2);
const entries: IndexEntry[] = [];
for (const [path, text] of files.texts) {
  if (!path.includes('/index/')) continue;
  const parsed = parseShard(text, 'suite-1', path.slice(path.lastIndexOf('/') + 1, path.lastIndexOf('/') + 8));
  if (parsed.ok) entries.push(...parsed.entries);
}
entries.sort((a, b) => (a.startedAt < b.startedAt ? -1 : 1));
entries.forEach((e, i) => {
  if (i % 11 === 5) e.branch = 'release';
});

const dir = await tempDir('bench-settled');
try {
  await git(dir, 'init', '--quiet', '--bare');
  const importer = spawn('git', ['fast-import', '--quiet'], { cwd: dir, stdio: ['pipe', 'inherit', 'inherit'] });
  const write = (chunk: string | Buffer) =>
    new Promise<void>((done) => (importer.stdin.write(chunk) ? done() : importer.stdin.once('drain', () => done())));
  let settled: Settled | undefined;
  let previous = '';
  let versions = 0;
  let largest = 0;
  for (let day = 0; day < entries.length; day++) {
    const upTo = entries.slice(0, day + 1);
    const months = [...new Set(upTo.map((e) => monthOf(e.startedAt)))];
    const before = settledBoundary(
      months,
      upTo.slice(-30).map((e) => monthOf(e.startedAt)),
    )!;
    const base = settled ?? emptySettled('suite-1', before);
    settled = settle(
      base,
      upTo.filter((e) => monthOf(e.startedAt) >= base.before),
      before,
    );
    // Blob ids of the settled months' shards and files: they change only as months settle.
    settled.shards = Object.fromEntries(
      months.filter((m) => m < before).map((m) => [m, createHash('sha1').update(`shard ${m}`).digest('hex')]),
    );
    settled.files = createHash('sha1').update(`files before ${before}`).digest('hex');
    const text = serializeSettled(settled);
    let change = '';
    if (text !== previous) {
      const bytes = Buffer.from(text);
      change = `M 100644 inline runs/suite-1/settled.suite-1.js\ndata ${bytes.length}\n${text}\n`;
      previous = text;
      versions++;
      largest = Math.max(largest, bytes.length);
    }
    await write(
      `commit refs/heads/gh-pages\ncommitter bench <bench@example.com> ${1_672_538_400 + day * 86_400} +0000\ndata 4\nday\n${change}\n`,
    );
  }
  importer.stdin.end();
  await new Promise((done) => importer.on('close', done));
  await git(dir, 'gc', '--quiet');
  // Packed bytes of the file's versions (blobs), apart from the commits and trees around them.
  const packs = (await readdir(join(dir, 'objects', 'pack'))).filter((f) => f.endsWith('.idx'));
  let blobs = 0;
  for (const idx of packs) {
    for (const line of (await git(dir, 'verify-pack', '-v', join(dir, 'objects', 'pack', idx))).split('\n')) {
      const [, type, , packed] = line.split(/\s+/);
      if (type === 'blob') blobs += Number(packed);
    }
  }
  console.log(
    `settled-months file of one suite, ${days} daily commits: ${versions} versions (largest ${kib(largest)}), ` +
      `${kib(blobs)} of history after git gc; ${SCALE_SHAPE.suites} suites: ${((blobs * SCALE_SHAPE.suites) / 1024 / 1024).toFixed(1)} MiB`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
