// Turns kubelet resource-metric scrapes taken during one repetition into per-group usage:
// CPU from the change of each container's cumulative CPU seconds between its samples, memory
// from the working set of each sample, both only from samples inside the measured window,
// summed per group at each instant, then min/max/avg over the instants and the per-1000-rps
// figures (Istio's published unit). Pure.
//
// Scrapes are not all alike on a real cluster: a node's proxy times out once, a new container
// shows up in the kubelet's metrics a few seconds late, the kubelet repeats a sample it has not
// refreshed yet. Summing whatever each scrape holds would sum a group spread over nodes short
// (one ztunnel of two) at those instants. So each container's value is carried over the scrapes
// it missed within its own span, and a group's instant counts only when every container the
// group had in the repetition has a value at it, unless fewer than half the instants qualify (a
// pod replaced midway never coexists with its successor): then every instant counts, as measured.
import type { ResourceUsage } from '../../../results/types.ts';
import type { ContainerIdentity, ResourceGroup } from './groups.ts';
import type { MeasuredWindow } from '../../../load/types.ts';

export interface ContainerSample extends ContainerIdentity {
  /** Cumulative CPU time in core-seconds. */
  cpuSeconds?: number;
  memoryBytes?: number;
  /** The kubelet's own timestamp for the sample, when it gives one (cAdvisor's, not the scrape's). */
  timestampMs?: number;
}

export interface Scrape {
  atMs: number;
  containers: ContainerSample[];
}

/** The measured part of a repetition (after warm-up), in epoch milliseconds. */

export type Classifier = (container: ContainerIdentity) => { group: ResourceGroup; scope: string } | undefined;

export interface Aggregation {
  /** Groups with a CPU figure: at least two of their kubelet samples fell inside the window. */
  usage: ResourceUsage[];
  /** Groups seen but left out: fewer than two of their samples fell inside the window ("scope/group"). */
  tooFewSamples: string[];
}

interface Series {
  group: ResourceGroup;
  scope: string;
  tracks: Track[];
}

/** One container's values by scrape index; undefined where it gave none. */
interface Track {
  cpu: (number | undefined)[];
  memory: (number | undefined)[];
  /** Scrape indices that carried a sample of this container not seen before. */
  fresh: boolean[];
  lastSeen: number;
}

const key = (c: ContainerIdentity) => `${c.namespace}/${c.pod}/${c.container}`;

/**
 * Only samples taken inside the measured window count. The kubelet serves cAdvisor's cache,
 * refreshed every 10-30 s, and stamps each sample with the time cAdvisor took it; a scrape
 * shortly after the load starts can return a sample from before it, and the final scrape (after
 * k6 has exited and its summary was copied) one from after it. A sample's own timestamp decides,
 * the scrape time only when the kubelet gives none (then the value is computed at the scrape).
 * CPU is the counter's change between two in-window samples, so the window's edges are not
 * interpolated: interpolating the counter at the window's start would assume the rate across the
 * straddling refresh interval was constant, but that interval spans warm-up or idle time (up to
 * 15 s of it), which is the dilution this avoids. Steady load inside the window gives the same
 * rate from any sub-interval, so dropping the edges loses precision, not accuracy.
 */
export function aggregateScrapes(
  scrapes: readonly Scrape[],
  classify: Classifier,
  achievedRps: number,
  window?: MeasuredWindow,
): Aggregation {
  const series = new Map<string, Series>();
  const tracks = new Map<string, Track>();
  const trackFor = (id: string, group: ResourceGroup, scope: string) => {
    let track = tracks.get(id);
    if (track) return track;
    const seriesId = `${group}\u0000${scope}`;
    let s = series.get(seriesId);
    if (!s) series.set(seriesId, (s = { group, scope, tracks: [] }));
    tracks.set(id, (track = { cpu: [], memory: [], fresh: [], lastSeen: -1 }));
    s.tracks.push(track);
    return track;
  };
  const inWindow = (atMs: number) => !window || (atMs >= window.startMs && atMs <= window.endMs);
  const ordered = [...scrapes].sort((a, b) => a.atMs - b.atMs);
  // The last in-window sample each container's CPU rate is measured from, and the time of the
  // last sample seen (a kubelet that has not refreshed repeats it).
  const base = new Map<string, { cpuSeconds: number; atMs: number }>();
  const lastSampleAt = new Map<string, number>();
  const seenGroups = new Set<string>();
  ordered.forEach((scrape, index) => {
    for (const sample of scrape.containers) {
      const where = classify(sample);
      if (!where) continue;
      seenGroups.add(`${where.scope}/${where.group}`);
      const at = sample.timestampMs ?? scrape.atMs;
      if (!inWindow(at)) continue;
      const id = key(sample);
      const track = trackFor(id, where.group, where.scope);
      track.lastSeen = index;
      if (lastSampleAt.get(id) === at) continue; // the kubelet repeated its sample: nothing new
      lastSampleAt.set(id, at);
      track.fresh[index] = true;
      if (sample.memoryBytes !== undefined) track.memory[index] = sample.memoryBytes / (1024 * 1024);
      if (sample.cpuSeconds === undefined) continue;
      const before = base.get(id);
      base.set(id, { cpuSeconds: sample.cpuSeconds, atMs: at });
      if (!before || at <= before.atMs) continue;
      const used = sample.cpuSeconds - before.cpuSeconds;
      if (used >= 0) track.cpu[index] = (used / ((at - before.atMs) / 1000)) * 1000; // < 0: a restarted container
    }
  });
  const perK = achievedRps > 0 ? achievedRps / 1000 : undefined;
  const measured = [...series.values()].map((s) => {
    const fresh = (i: number) => s.tracks.some((t) => t.fresh[i]);
    const cpuValues = groupInstants(
      s.tracks.map((t) => carried(t.cpu, t.lastSeen)),
      ordered.length,
      fresh,
    );
    const memoryValues = groupInstants(
      s.tracks.map((t) => carried(t.memory, t.lastSeen)),
      ordered.length,
      fresh,
    );
    return { s, cpuValues, memoryValues };
  });
  const usage = measured
    .filter(({ cpuValues }) => cpuValues.length > 0)
    .map(({ s, cpuValues, memoryValues }) => {
      const cpu = stats(cpuValues);
      const memory = stats(memoryValues);
      const usage: ResourceUsage = {
        group: s.group,
        scope: s.scope,
        cpuMillicores: cpu,
        memoryMiB: memory,
        samples: Math.max(cpuValues.length + 1, memoryValues.length),
      };
      if (perK) {
        usage.cpuPer1000Rps = round(cpu.avg / perK);
        usage.memoryMiBPer1000Rps = round(memory.avg / perK);
      }
      return usage;
    })
    .sort((a, b) => a.scope.localeCompare(b.scope) || a.group.localeCompare(b.group));
  const reported = new Set(usage.map((u) => `${u.scope}/${u.group}`));
  const tooFewSamples = [...seenGroups].filter((g) => !reported.has(g)).sort();
  return { usage, tooFewSamples };
}

/** A container's values with the scrapes it missed, between its first value and its last appearance, carried from the one before. */
function carried(values: readonly (number | undefined)[], lastSeen: number): (number | undefined)[] {
  const filled: (number | undefined)[] = [];
  let last: number | undefined;
  for (let i = 0; i <= lastSeen; i++) {
    if (values[i] !== undefined) last = values[i];
    filled[i] = last;
  }
  return filled;
}

/**
 * The group's sums at the instants one of its containers gave a new sample and every one of them
 * has a value, or at every such instant when under half qualify.
 */
function groupInstants(tracks: readonly (number | undefined)[][], instants: number, fresh: (index: number) => boolean): number[] {
  const present = tracks.filter((t) => t.some((v) => v !== undefined));
  const all: number[] = [];
  const complete: number[] = [];
  for (let i = 0; i < instants; i++) {
    if (!fresh(i)) continue;
    const values = present.map((t) => t[i]).filter((v): v is number => v !== undefined);
    if (values.length === 0) continue;
    const sum = values.reduce((a, b) => a + b, 0);
    all.push(sum);
    if (values.length === present.length) complete.push(sum);
  }
  return complete.length * 2 >= all.length ? complete : all;
}

function stats(values: number[]): { min: number; max: number; avg: number } {
  if (values.length === 0) return { min: 0, max: 0, avg: 0 };
  const sum = values.reduce((a, b) => a + b, 0);
  return { min: round(Math.min(...values)), max: round(Math.max(...values)), avg: round(sum / values.length) };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** Container samples from one /metrics/resource body (already parsed). */
export function containerSamples(
  samples: readonly { name: string; labels: Record<string, string>; value: number; timestampMs?: number }[],
): ContainerSample[] {
  const byKey = new Map<string, ContainerSample>();
  for (const s of samples) {
    if (s.name !== 'container_cpu_usage_seconds_total' && s.name !== 'container_memory_working_set_bytes') continue;
    const { namespace, pod, container } = s.labels;
    if (!namespace || !pod || !container) continue;
    const id = `${namespace}/${pod}/${container}`;
    const entry = byKey.get(id) ?? { namespace, pod, container };
    if (s.name === 'container_cpu_usage_seconds_total') {
      entry.cpuSeconds = s.value;
      if (s.timestampMs !== undefined) entry.timestampMs = s.timestampMs;
    } else {
      entry.memoryBytes = s.value;
      // cAdvisor stamps both from the same housekeeping pass; the CPU's wins when both are given.
      if (s.timestampMs !== undefined && entry.timestampMs === undefined) entry.timestampMs = s.timestampMs;
    }
    byKey.set(id, entry);
  }
  return [...byKey.values()];
}
