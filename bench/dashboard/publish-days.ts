// Benchmark: CPU of a day's publish into a seeded branch, with the publisher of one or more source
// trees, each in a process of its own (a cold process, as a CI job's publish is), alternated so
// that both see the same load:
//   node --import tsx bench/dashboard/publish-days.ts --repo <seeded.git> [--src /work/main/src]
//        [--src src] [--days 3] [--rounds 2]
// <seeded.git> is a bare repository as bench/dashboard/seed.ts writes it (`run.ts --keep` leaves
// one in its work dir as layout-2.git); each process publishes the next --days days of the bench's
// shape into a hard-linked copy of it served by `git daemon` on 127.0.0.1 (as run.ts serves it), so
// the repository itself is never changed. CPU is this process's and its git clients' (not the
// server's), as run.ts measures it. The branch's day count is read from it.
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs, promisify } from 'node:util';

const exec = promisify(execFile);
const { values } = parseArgs({
  options: {
    repo: { type: 'string' },
    src: { type: 'string', multiple: true },
    days: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '2' },
    // Internal: one publisher process (src, git URL, first day).
    child: { type: 'string' },
    url: { type: 'string' },
    from: { type: 'string' },
  },
});

if (values.child) await publishDays(resolve(values.child), values.url!, Number(values.from), Number(values.days));
else await main();

async function main(): Promise<void> {
  if (!values.repo) throw new Error('--repo <seeded bare repository> is required');
  const sources = (values.src ?? ['src']).map((s) => resolve(s));
  const seeded = Number((await exec('git', ['-C', values.repo, 'rev-list', '--count', 'refs/heads/gh-pages'])).stdout.trim());
  const work = await mkdtemp(join(tmpdir(), 'mesh-perf-publish-days-'));
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  console.log(`# a day's publish into ${values.repo} (${seeded} daily commits), ${values.days} days per process; load average ${load()}`);
  const cpu = new Map<string, number[]>(sources.map((s) => [s, []]));
  try {
    for (let round = 0; round < Number(values.rounds); round++) {
      for (const [i, src] of sources.entries()) {
        const name = `r${round}-${i}.git`;
        await exec('cp', ['-al', values.repo, join(work, name)]);
        for (const key of ['uploadpack.allowFilter', 'uploadpack.allowAnySHA1InWant'])
          await exec('git', ['-C', join(work, name), 'config', key, 'true']);
        const daemon = await startDaemon(work, name);
        try {
          const args = [
            '--import',
            'tsx',
            import.meta.filename,
            '--child',
            src,
            '--url',
            `${daemon.url}${name}`,
            '--from',
            String(seeded),
            '--days',
            values.days!,
          ];
          const { stdout } = await exec(process.execPath, args, { cwd: join(src, '..'), maxBuffer: 1 << 20 });
          process.stdout.write(`${stdout.trimEnd().replace(/^/gm, `${src} `)}\n`);
          for (const m of stdout.matchAll(/CPU ([\d.]+) s/g)) cpu.get(src)!.push(Number(m[1]));
        } finally {
          daemon.stop();
          await rm(join(work, name), { recursive: true, force: true });
        }
      }
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  console.log(
    `\n| publisher | CPU of a day's publish, median (min–max), ${Number(values.days) * Number(values.rounds)} publishes |\n|---|---:|`,
  );
  for (const [src, v] of cpu) {
    const s = [...v].sort((a, b) => a - b);
    console.log(`| ${src} | **${s[Math.floor((s.length - 1) / 2)]!.toFixed(2)} s** (${s[0]!.toFixed(2)}–${s.at(-1)!.toFixed(2)}) |`);
  }
  console.log(`load average at the end: ${load()}`);
}

/** In a process of its own: publishes `days` days from `from` with the store code of `src`. */
async function publishDays(src: string, url: string, from: number, days: number): Promise<void> {
  const bench = join(src, '..', 'bench', 'dashboard');
  const { runsOfDay } = await import(pathToFileURL(join(bench, 'seed.ts')).href);
  const { GitBranchStore } = await import(pathToFileURL(join(src, 'history/git/git-branch-store.ts')).href);
  const { loadChartJsSource } = await import(pathToFileURL(join(src, 'report/html/chartjs-source.ts')).href);
  const { parseTimelineRetention } = await import(pathToFileURL(join(src, 'history/retention.ts')).href);
  const { loadSiteScripts } = await import(pathToFileURL(join(src, 'site/scripts.ts')).href);
  // The page scripts are bundled once per process, before the first publish (run.ts does the same).
  await loadSiteScripts();
  const shape = { days: from, suites: 5, profilesPerSuite: 4, modes: 5, repetitions: 3, durationS: 30, keepTimelines: '30d' };
  for (let d = from; d < from + days; d++) {
    const day = runsOfDay(shape, d);
    const store = new GitBranchStore({
      url,
      branch: 'gh-pages',
      chartJs: loadChartJsSource,
      timelineRetention: parseTimelineRetention('30d'),
      now: () => new Date(day[0].run.startedAt),
    });
    const c0 = cpuNow();
    const w0 = performance.now();
    const out = await store.publish(day);
    console.log(
      `${day[0].run.startedAt.slice(0, 10)}: CPU ${(cpuNow() - c0).toFixed(2)} s, wall ${((performance.now() - w0) / 1000).toFixed(2)} s, ${out.added.length} runs added`,
    );
  }
}

/** This process's CPU and its reaped children's (the git clients), in seconds. */
function cpuNow(): number {
  const own = process.cpuUsage();
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (own.user + own.system) / 1e6 + (Number(fields[13]) + Number(fields[14])) / 100;
}

async function startDaemon(root: string, name: string): Promise<{ url: string; stop(): void }> {
  const port = await new Promise<number>((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => done(free));
    });
  });
  const args = [
    'daemon',
    '--reuseaddr',
    '--listen=127.0.0.1',
    `--port=${port}`,
    `--base-path=${root}`,
    '--export-all',
    '--enable=receive-pack',
    root,
  ];
  const child = spawn('git', args, { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    try {
      await exec('git', ['ls-remote', `git://127.0.0.1:${port}/${name}`]);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  process.once('exit', () => child.kill());
  return { url: `git://127.0.0.1:${port}/`, stop: () => void child.kill() };
}
