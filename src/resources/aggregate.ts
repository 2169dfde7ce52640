// Turns kubelet resource-metric scrapes taken during one repetition into per-group usage:
// CPU from the change of each container's cumulative CPU seconds between consecutive scrapes,
// memory from the working set at each scrape, summed per group at each instant, then min/max/avg
// over the instants and the per-1000-rps figures (Istio's published unit). Pure.
import type { ResourceUsage } from '../results/types.ts';
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
  cpu: number[];
  memory: number[];
}

const key = (c: ContainerIdentity) => `${c.namespace}/${c.pod}/${c.container}`;

export function aggregateScrapes(scrapes: readonly Scrape[], classify: Classifier, achievedRps: number): ResourceUsage[] {
  const series = new Map<string, Series>();
  const seriesFor = (group: ResourceGroup, scope: string) => {
    const id = `${group}\u0000${scope}`;
    let s = series.get(id);
    if (!s) series.set(id, (s = { group, scope, cpu: [], memory: [] }));
    return s;
  };
  const ordered = [...scrapes].sort((a, b) => a.atMs - b.atMs);
  let previous = new Map<string, ContainerSample & { atMs: number }>();
  ordered.forEach((scrape, index) => {
    const cpuAt = new Map<Series, number>();
    const memoryAt = new Map<Series, number>();
    const current = new Map<string, ContainerSample & { atMs: number }>();
    for (const sample of scrape.containers) {
      const where = classify(sample);
      if (!where) continue;
      const s = seriesFor(where.group, where.scope);
      current.set(key(sample), { ...sample, atMs: scrape.atMs });
      if (sample.memoryBytes !== undefined) memoryAt.set(s, (memoryAt.get(s) ?? 0) + sample.memoryBytes / (1024 * 1024));
      const before = previous.get(key(sample));
      if (before?.cpuSeconds === undefined || sample.cpuSeconds === undefined) continue;
      const seconds = ((sample.timestampMs ?? scrape.atMs) - (before.timestampMs ?? before.atMs)) / 1000;
      const used = sample.cpuSeconds - before.cpuSeconds;
      if (seconds <= 0 || used < 0) continue; // same sample twice, or a restarted container
      cpuAt.set(s, (cpuAt.get(s) ?? 0) + (used / seconds) * 1000);
    }
    for (const [s, value] of cpuAt) s.cpu.push(value);
    for (const [s, value] of memoryAt) s.memory.push(value);
    previous = current;
  });
  const perK = achievedRps > 0 ? achievedRps / 1000 : undefined;
  return [...series.values()]
    .filter((s) => s.cpu.length > 0 || s.memory.length > 0)
    .map((s) => {
      const cpu = stats(s.cpu);
      const memory = stats(s.memory);
      const usage: ResourceUsage = {
        group: s.group,
        scope: s.scope,
        cpuMillicores: cpu,
        memoryMiB: memory,
        samples: Math.max(s.cpu.length, s.memory.length),
      };
      if (perK) {
        usage.cpuPer1000Rps = round(cpu.avg / perK);
        usage.memoryMiBPer1000Rps = round(memory.avg / perK);
      }
      return usage;
    })
    .sort((a, b) => a.scope.localeCompare(b.scope) || a.group.localeCompare(b.group));
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
