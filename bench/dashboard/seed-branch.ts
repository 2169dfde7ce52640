// Seeds the bench's 3-year branch on its own, for `run.ts --after-repo` and `publish-days.ts --repo`
// (seeding is most of run.ts's time; run it at `nice -n 19`, about 40 minutes at the default shape):
//   node --import tsx bench/dashboard/seed-branch.ts <target.git> [--days 1095] [--suites 5]
//        [--profiles 4] [--modes 5] [--repetitions 3] [--duration 30] [--keep-timelines 30d]
// The work repository lives under $TMPDIR until the last day is committed, then moves to <target.git>.
import { parseArgs } from 'node:util';
import { loadChartJsSource } from '../../src/report/html/chartjs-source.ts';
import { describeShape, type SeedShape, seedBranch } from './seed.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    days: { type: 'string', default: '1095' },
    suites: { type: 'string', default: '5' },
    profiles: { type: 'string', default: '4' },
    modes: { type: 'string', default: '5' },
    repetitions: { type: 'string', default: '3' },
    duration: { type: 'string', default: '30' },
    'keep-timelines': { type: 'string', default: '30d' },
  },
});
const target = positionals[0];
if (!target) throw new Error('usage: seed-branch.ts <target.git> [--days 1095] ...');
const shape: SeedShape = {
  days: Number(values.days),
  suites: Number(values.suites),
  profilesPerSuite: Number(values.profiles),
  modes: Number(values.modes),
  repetitions: Number(values.repetitions),
  durationS: Number(values.duration),
  keepTimelines: values['keep-timelines'],
};
const cpu0 = process.cpuUsage();
const wall = await seedBranch(target, shape, await loadChartJsSource(), (day) =>
  process.stderr.write(`seeded ${day}/${shape.days} days ${new Date().toISOString()}\n`),
);
const cpu = process.cpuUsage(cpu0);
console.log(
  `${target}: ${describeShape(shape)}; seeded in ${wall.toFixed(0)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(0)} s CPU of this process`,
);
