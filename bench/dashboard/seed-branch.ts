// Seeds the bench's 3-year branch on its own, for `run.ts --after-repo` and `publish-days.ts --repo`
// (seeding is most of run.ts's time; run it at `nice -n 19`, about 40 minutes at the default shape):
//   node --import tsx bench/dashboard/seed-branch.ts <target.git> [--days 1095] [--suites 5]
//        [--profiles 4] [--modes 5] [--repetitions 3] [--duration 30] [--keep-timelines 30d]
// The work repository lives under $TMPDIR until the last day is committed, then moves to <target.git>.
import { parseArgs } from 'node:util';
import { loadChartJsSource } from '../../src/report/html/chartjs-source.ts';
import { describeShape, SHAPE_OPTIONS, seedBranch, shapeFromFlags } from './seed.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    ...SHAPE_OPTIONS,
  },
});
const target = positionals[0];
if (!target) throw new Error('usage: seed-branch.ts <target.git> [--days 1095] ...');
const shape = shapeFromFlags(values);
const cpu0 = process.cpuUsage();
const wall = await seedBranch(target, shape, await loadChartJsSource(), (day) =>
  process.stderr.write(`seeded ${day}/${shape.days} days ${new Date().toISOString()}\n`),
);
const cpu = process.cpuUsage(cpu0);
console.log(
  `${target}: ${describeShape(shape)}; seeded in ${wall.toFixed(0)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(0)} s CPU of this process`,
);
