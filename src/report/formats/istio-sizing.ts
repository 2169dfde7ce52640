// Source benchmark 002: Istio publishes the mesh's cost as latency added per percentile over the no-mesh
// baseline (two proxies on the path), proxy vCPU per 1000 requests per second, and proxy memory
// at the measured rate. Added latency here is the run's overhead (view.ts): the median over
// interleaved blocks of (mode − baseline) in the same block, so runner drift cancels; resource
// figures are medians over repetitions.
import type { Repetition } from '../../results/types.ts';
import { findMode, modeNames, profileNames, validRepetitions } from './aggregate.ts';
import { findRow, medianOf, type RunView } from '../view.ts';

const STATS = ['p50', 'p90', 'p99'] as const;
const PROXY_GROUPS = ['sidecar', 'ztunnel', 'waypoint'];
// Which proxies are on a mode's path. ztunnel runs on every node of an ambient-capable cluster,
// so without this a sidecar or no-mesh mode would be charged for idle ztunnels.
const PATH_PROXIES: Record<string, string[]> = {
  baseline: [],
  'istio-sidecar': ['sidecar'],
  linkerd: ['sidecar'],
  'istio-ambient': ['ztunnel'],
  'istio-waypoint': ['ztunnel', 'waypoint'],
};

export function renderIstioSizing(view: RunView): string {
  const out = [
    `# ${view.run.suite}: mesh cost in Istio's units`,
    '',
    `Run ${view.run.id}, ${view.run.startedAt}, platform ${view.run.platform}; added latency against mode ${view.baseline} of the same run.`,
  ];
  for (const profile of profileNames(view)) {
    out.push('', `### ${profile}`, '');
    const header = [
      'Mode',
      ...STATS.map((s) => `added ${s.toUpperCase()} [ms]`),
      'proxy vCPU per 1000 rps',
      'proxy memory [MB]',
      'achieved rps',
    ];
    out.push(`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`);
    for (const name of modeNames(view)) {
      const mode = findMode(view, name, profile);
      if (!mode) continue;
      const reps = validRepetitions(mode);
      const row = findRow(view, name, profile)!;
      const added = STATS.map((stat) => (row.isBaseline ? '–' : ms(row.overhead[stat]?.difference.value)));
      const groups = new Set(PATH_PROXIES[mode.mesh ?? name] ?? PATH_PROXIES[name] ?? PROXY_GROUPS);
      const cpu = medianOf(reps.map((r) => proxyCpuPer1000(r, groups)).filter((v): v is number => v !== undefined));
      const mem = medianOf(reps.map((r) => proxyMemoryMiB(r, groups)).filter((v): v is number => v !== undefined));
      const rps = row.fromInvalid ? undefined : row.achievedRps?.value;
      out.push(
        `| ${[name, ...added, cpu === undefined ? '–' : (cpu / 1000).toFixed(3), mem === undefined ? '–' : (mem * MIB_TO_MB).toFixed(1), rps === undefined ? 'invalid' : rps.toFixed(1)].join(' | ')} |`,
      );
    }
  }
  out.push('', "Istio's published figures for comparison: see docs/methodology.md (e.g. 1.24: sidecar 0.20 vCPU and 60 MB at 1000 rps).");
  return `${out.join('\n')}\n`;
}

const MIB_TO_MB = 1.048576;

/** Millicores of all proxies on the path (both sidecars, both ztunnels, waypoint) per 1000 rps. */
function proxyCpuPer1000(rep: Repetition, groups: ReadonlySet<string>): number | undefined {
  const proxies = (rep.resources ?? []).filter((u) => groups.has(u.group));
  if (proxies.length === 0 || rep.achievedRps <= 0) return undefined;
  return (proxies.reduce((sum, u) => sum + u.cpuMillicores.avg, 0) / rep.achievedRps) * 1000;
}

/** Memory does not scale with the rate, so Istio quotes it as is, at the measured rate. */
function proxyMemoryMiB(rep: Repetition, groups: ReadonlySet<string>): number | undefined {
  const proxies = (rep.resources ?? []).filter((u) => groups.has(u.group));
  return proxies.length === 0 ? undefined : proxies.reduce((sum, u) => sum + u.memoryMiB.avg, 0);
}

function ms(value: number | undefined): string {
  return value === undefined ? 'invalid' : `${value >= 0 ? '+' : ''}${value.toFixed(3)}`;
}
