// Builds a gh-pages history the way daily publishing would: one commit per day, each adding that
// day's runs (one per suite) through the same planner the `publish` command uses. Commits are
// built in one local bare repository rather than with a fetch and push per day, which would take
// hours; the branch's content and shape (one commit per day, every file rewritten as publish
// rewrites it) are the same. The repository then becomes the bench's "remote".
import { rename } from 'node:fs/promises';
import { Git } from '../../src/history/git/git.ts';
import { GitSession } from '../../src/history/git/session.ts';
import { planPublish } from '../../src/history/publish-plan.ts';
import { loadSiteScripts } from '../../src/site/scripts.ts';
import { DEFAULT_TIMELINE_RETENTION, parseTimelineRetention } from '../../src/history/retention.ts';
import type { RunResult } from '../../src/results/types.ts';
import { buildRunResult, DEFAULT_MODES } from '../../test/support/results-fixture.ts';

export interface SeedShape {
  days: number;
  suites: number;
  profilesPerSuite: number;
  modes: number;
  repetitions: number;
  durationS: number;
  /** history.keepTimelines; the product's default unless given. */
  keepTimelines?: string;
}

/** The shape's command-line flags, with the acceptance shape as defaults (run.ts and seed-branch.ts take them). */
export const SHAPE_OPTIONS = {
  days: { type: 'string', default: '1095' },
  suites: { type: 'string', default: '5' },
  profiles: { type: 'string', default: '4' },
  modes: { type: 'string', default: '5' },
  repetitions: { type: 'string', default: '3' },
  duration: { type: 'string', default: '30' },
  'keep-timelines': { type: 'string', default: '30d' },
} as const;

/** The shape those flags give. */
export function shapeFromFlags(values: Record<keyof typeof SHAPE_OPTIONS, string>): SeedShape {
  return {
    days: Number(values.days),
    suites: Number(values.suites),
    profilesPerSuite: Number(values.profiles),
    modes: Number(values.modes),
    repetitions: Number(values.repetitions),
    durationS: Number(values.duration),
    keepTimelines: values['keep-timelines'],
  };
}

export function describeShape(shape: SeedShape): string {
  return (
    `${shape.days} days × ${shape.suites} suites × ${shape.profilesPerSuite} load profiles (= ${shape.suites * shape.profilesPerSuite} scenarios), ` +
    `${shape.modes} modes × ${shape.repetitions} repetitions × ${shape.durationS} s, history.keepTimelines ${shape.keepTimelines ?? DEFAULT_TIMELINE_RETENTION}`
  );
}

export function runsOfDay(shape: SeedShape, day: number, start = Date.UTC(2023, 0, 1, 2, 0, 0)): RunResult[] {
  const modes = DEFAULT_MODES.slice(0, shape.modes);
  const profiles = Array.from(
    { length: shape.profilesPerSuite },
    (_, i) => `${[1000, 500, 200, 100, 50, 20][i % 6]}rps${i >= 6 ? `-${i}` : ''}`,
  );
  return Array.from({ length: shape.suites }, (_, s) => {
    // Every 37th run of a suite has an invalid repetition, as real histories do.
    const invalid = (day * shape.suites + s) % 37 === 0 ? [{ mode: modes[modes.length - 1]!, repetition: 0 }] : undefined;
    return buildRunResult({
      suite: `suite-${s + 1}`,
      seed: day * 1000 + s + 1,
      startedAt: new Date(start + day * 86_400_000 + s * 1_800_000),
      modes,
      profiles,
      repetitions: shape.repetitions,
      durationS: shape.durationS,
      branch: day % 11 === 5 ? 'release' : 'main',
      event: 'schedule',
      ...(invalid ? { invalid } : {}),
    });
  });
}

/** Creates the bare repository `target` holding gh-pages seeded with `shape`; returns the seconds it took. */
export async function seedBranch(target: string, shape: SeedShape, chartJs: string, progress: (day: number) => void): Promise<number> {
  const started = performance.now();
  const git = new Git();
  const session = await GitSession.open(git, target, 'gh-pages', { partial: false });
  const scripts = await loadSiteScripts();
  let moved = false;
  try {
    let head: string | undefined;
    const timelineRetention = parseTimelineRetention(shape.keepTimelines ?? DEFAULT_TIMELINE_RETENTION);
    for (let day = 0; day < shape.days; day++) {
      const runs = runsOfDay(shape, day);
      const plan = await planPublish(session.tree(head), runs, {
        storeLabel: target,
        now: new Date(runs[0]!.run.startedAt),
        chartJs,
        scripts,
        ...(timelineRetention ? { timelineRetention } : {}),
      });
      const staging = session.stage();
      for (const [path, text] of plan.changes.writes) await staging.write(path, text);
      for (const path of plan.changes.deletes) await staging.remove(path);
      head = await staging.commit(head, `mesh-perf: publish day ${day + 1}\n`);
      if (day % 30 === 29) progress(day + 1);
    }
    if (!head) throw new Error('nothing was seeded');
    await git.run(['update-ref', 'refs/heads/gh-pages', head], { cwd: session.dir });
    await git.run(['symbolic-ref', 'HEAD', 'refs/heads/gh-pages'], { cwd: session.dir });
    await git.run(['remote', 'remove', 'origin'], { cwd: session.dir });
    await rename(session.dir, target);
    moved = true;
  } finally {
    if (!moved) await session.close();
  }
  return (performance.now() - started) / 1000;
}
