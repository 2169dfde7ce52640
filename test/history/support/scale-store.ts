// A large history store in memory for timing publish: per suite an index of daily runs with
// lognormal noise in every indexed figure, run files present by name and blob id only. Values
// are synthetic; the shape is bench/dashboard's (3 years × 5 suites × 4 load profiles × 5 modes).
// Layout 2 (index shards per month, layout.ts) by default; layout 1 (one index.json per suite,
// legacy-layout.ts) for timing a planner of that version (bench/change-points/publish-scale.ts).
import type { StoreTree } from '../../../src/history/tree.ts';
import { seededRandom } from '../../../src/util/random.ts';
import { byMonth, serializeShard, type IndexEntry } from '../../../src/history/suite-index.ts';
import { shardPath } from '../../../src/history/layout.ts';

export const SCALE_SHAPE = { days: 1095, suites: 5, profiles: ['1000rps', '500rps', '200rps', '100rps'], modes: 5 };

const MODES = ['baseline', 'istio-sidecar', 'istio-ambient', 'istio-waypoint', 'linkerd'];

export interface StoreFiles {
  texts: Map<string, string>;
  blobs: Map<string, string>;
}

export function buildScaleStore(shape: typeof SCALE_SHAPE, layout: 1 | 2 = 2): StoreFiles {
  const random = seededRandom(42);
  const noise = (cv: number) => Math.exp(cv * Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random()));
  const texts = new Map<string, string>();
  const blobs = new Map<string, string>();
  const suites = Array.from({ length: shape.suites }, (_, s) => `suite-${s + 1}`);
  for (const suite of suites) {
    const runs: Record<string, unknown>[] = [];
    for (let day = 0; day < shape.days; day++) {
      const at = new Date(Date.UTC(2023, 0, 1, 2, 0, 0) + day * 86_400_000);
      const stamp = at
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d+Z$/, 'Z');
      const id = `${stamp}-${day.toString(36)}`;
      const file = `runs/${suite}/${at.getUTCFullYear()}/${stamp}-${day.toString(36)}.${layout === 1 ? 'json' : 'js'}`;
      const blob = day.toString(16).padStart(40, '0');
      blobs.set(file, blob);
      if (layout === 2) blobs.set(file.replace(/\.js$/, '.tl.js'), 'f'.repeat(40));
      const modes: Record<string, Record<string, unknown>> = {};
      for (const profile of shape.profiles) {
        modes[profile] = {};
        const base = 1 * noise(0.03);
        for (const [m, mode] of MODES.slice(0, shape.modes).entries()) {
          const p50 = m === 0 ? base : base * (1.2 + 0.1 * m) * noise(0.025);
          const t = (v: number) => [Number(v.toPrecision(5)), Number((v * 0.97).toPrecision(5)), Number((v * 1.03).toPrecision(5))];
          modes[profile]![mode] = {
            n: 3,
            valid: 3,
            s: {
              p50: t(p50),
              p99: t(p50 * 2.6 * noise(0.05)),
              rps: t(1000),
              ...(m > 0 ? { ratio: t(p50 / base) } : {}),
              cpu: t(100 * noise(0.05)),
              err: [0, 0, 0],
            },
          };
        }
      }
      runs.push({
        id,
        file,
        ...(layout === 1 ? { report: file.replace(/\.json$/, '.html'), tl: false } : {}),
        blob,
        v: 9,
        startedAt: at.toISOString(),
        verdict: 'pass',
        sha: blob,
        branch: 'main',
        event: 'schedule',
        platform: 'kind',
        invalidReps: 0,
        baseline: 'baseline',
        modes,
      });
    }
    if (layout === 1) {
      texts.set(
        `runs/${suite}/index.json`,
        `{"schemaVersion":2,"kind":"mesh-perf-suite-index","suite":"${suite}","ciLevel":0.95,"runs":[\n${runs.map((r) => JSON.stringify(r)).join(',\n')}\n]}\n`,
      );
    } else {
      for (const [month, entries] of byMonth(runs as unknown as IndexEntry[]))
        texts.set(shardPath(suite, month), serializeShard(suite, month, entries));
    }
  }
  texts.set(
    'mesh-perf.json',
    JSON.stringify({
      schemaVersion: layout,
      kind: 'mesh-perf-history',
      suites: suites.map((name) => ({ name, runs: shape.days, profiles: shape.profiles, modes: MODES, branches: ['main'] })),
    }),
  );
  return { texts, blobs };
}

/** A read-only StoreTree over the files above; writes are the planner's to return, not to apply. */
export class MemoryTree implements StoreTree {
  constructor(private readonly files: StoreFiles) {}
  async list(prefix: string): Promise<string[]> {
    return [...new Set([...this.files.texts.keys(), ...this.files.blobs.keys()])].filter((p) => p.startsWith(prefix));
  }
  async blob(path: string): Promise<string | undefined> {
    return this.files.blobs.get(path) ?? (this.files.texts.has(path) ? `t${path.length}` : undefined);
  }
  async read(path: string): Promise<string | undefined> {
    return this.files.texts.get(path);
  }
  async readMany(paths: string[]): Promise<Map<string, string>> {
    return new Map(paths.flatMap((p) => (this.files.texts.has(p) ? [[p, this.files.texts.get(p)!] as [string, string]] : [])));
  }
}
