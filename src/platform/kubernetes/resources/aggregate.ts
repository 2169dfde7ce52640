// Turns kubelet resource-metric scrapes taken during one repetition into per-group usage:
// CPU from the change of each container's cumulative CPU seconds between its samples, memory
// from the working set at each scrape, summed per group at each instant, then min/max/avg over
// the instants and the per-1000-rps figures (Istio's published unit). Pure.
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

export interface ContainerSample extends ContainerIdentity {
  /** Cumulative CPU time in core-seconds. */
  cpuSeconds?: number;
  memoryBytes?: number;
  /** The kubelet's own timestamp for the CPU sample, when it gives one. */
  timestampMs?: number;
}

export interface Scrape {
  atMs: number;
  containers: ContainerSample[];
}

export type Classifier = (container: ContainerIdentity) => { group: ResourceGroup; scope: string } | undefined;

interface Series {
  group: ResourceGroup;
  scope: string;
  tracks: Track[];
}

/** One container's values by scrape index; undefined where it gave none. */
interface Track {
  cpu: (number | undefined)[];
  memory: (number | undefined)[];
  lastSeen: number;
}

const key = (c: ContainerIdentity) => `${c.namespace}/${c.pod}/${c.container}`;

export function aggregateScrapes(scrapes: readonly Scrape[], classify: Classifier, achievedRps: number): ResourceUsage[] {
  const series = new Map<string, Series>();
  const tracks = new Map<string, Track>();
  const trackFor = (id: string, group: ResourceGroup, scope: string) => {
    let track = tracks.get(id);
    if (track) return track;
    const seriesId = `${group}\u0000${scope}`;
    let s = series.get(seriesId);
    if (!s) series.set(seriesId, (s = { group, scope, tracks: [] }));
    tracks.set(id, (track = { cpu: [], memory: [], lastSeen: -1 }));
    s.tracks.push(track);
    return track;
  };
  const ordered = [...scrapes].sort((a, b) => a.atMs - b.atMs);
  // The last sample each container's CPU rate is measured from.
  const base = new Map<string, ContainerSample & { atMs: number }>();
  ordered.forEach((scrape, index) => {
    for (const sample of scrape.containers) {
      const where = classify(sample);
      if (!where) continue;
      const id = key(sample);
      const track = trackFor(id, where.group, where.scope);
      track.lastSeen = index;
      if (sample.memoryBytes !== undefined) track.memory[index] = sample.memoryBytes / (1024 * 1024);
      if (sample.cpuSeconds === undefined) continue;
      const before = base.get(id);
      const now = { ...sample, atMs: scrape.atMs };
      if (before?.cpuSeconds === undefined) {
        base.set(id, now);
        continue;
      }
      const seconds = ((sample.timestampMs ?? scrape.atMs) - (before.timestampMs ?? before.atMs)) / 1000;
      if (seconds <= 0) continue; // the kubelet repeated its sample: measure from the older one
      base.set(id, now);
      const used = sample.cpuSeconds - before.cpuSeconds;
      if (used >= 0) track.cpu[index] = (used / seconds) * 1000; // < 0: a restarted container
    }
  });
  const perK = achievedRps > 0 ? achievedRps / 1000 : undefined;
  return [...series.values()]
    .map((s) => {
      const cpuValues = groupInstants(s.tracks.map((t) => carried(t.cpu, t.lastSeen)), ordered.length);
      const memoryValues = groupInstants(s.tracks.map((t) => carried(t.memory, t.lastSeen)), ordered.length);
      return { s, cpuValues, memoryValues };
    })
    .filter(({ cpuValues, memoryValues }) => cpuValues.length > 0 || memoryValues.length > 0)
    .map(({ s, cpuValues, memoryValues }) => {
      const cpu = stats(cpuValues);
      const memory = stats(memoryValues);
      const usage: ResourceUsage = {
        group: s.group,
        scope: s.scope,
        cpuMillicores: cpu,
        memoryMiB: memory,
        samples: Math.max(cpuValues.length, memoryValues.length),
      };
      if (perK) {
        usage.cpuPer1000Rps = round(cpu.avg / perK);
        usage.memoryMiBPer1000Rps = round(memory.avg / perK);
      }
      return usage;
    })
    .sort((a, b) => a.scope.localeCompare(b.scope) || a.group.localeCompare(b.group));
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

/** The group's sums at the instants every one of its containers has a value, or at every instant when under half qualify. */
function groupInstants(tracks: readonly (number | undefined)[][], instants: number): number[] {
  const present = tracks.filter((t) => t.some((v) => v !== undefined));
  const all: number[] = [];
  const complete: number[] = [];
  for (let i = 0; i < instants; i++) {
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
export function containerSamples(samples: readonly { name: string; labels: Record<string, string>; value: number; timestampMs?: number }[]): ContainerSample[] {
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
    } else entry.memoryBytes = s.value;
    byKey.set(id, entry);
  }
  return [...byKey.values()];
}
