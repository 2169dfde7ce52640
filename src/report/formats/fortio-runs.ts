// Source benchmark 001: the Minikube report shows, per protocol and per mode, each of its 10 runs as a row of
// latency percentiles (min, p50 ... p99.9, max) and the echo servers' CPU/memory over the runs.
// Here the same figures as tables, one per protocol × mode, runs in the order they ran.
import type { Repetition, ResourceUsage } from '../../results/types.ts';
import { findMode, modeNames, profileNames, recordedProfile } from './aggregate.ts';
import type { RunView } from '../view.ts';

const TITLES: Record<string, string> = {
  baseline: 'baseline (unmeshed)',
  linkerd: 'Linkerd-meshed',
  'istio-sidecar': 'Istio-meshed',
};
const SERVER_GROUPS = new Set(['app', 'sidecar']);

export function renderFortioRuns(view: RunView): string {
  const out = [
    `# ${view.run.suite}: latency per run`,
    '',
    `Run ${view.run.id}, ${view.run.startedAt}, platform ${view.run.platform}. Latencies in ms, from k6.`,
  ];
  for (const profile of profileNames(view)) {
    const protocol = (recordedProfile(view, profile)?.protocol ?? profile).toUpperCase();
    for (const name of modeNames(view)) {
      const mode = findMode(view, name, profile);
      if (!mode) continue;
      const reps = [...mode.records].sort((a, b) => a.trial - b.trial);
      const withResources = reps.some((r) => serverUsage(r, name).length > 0);
      out.push('', `### ${protocol} load test with ${TITLES[name] ?? name} echo servers`, '');
      const header = [
        'Run',
        'rps',
        'min',
        'p50',
        'p75',
        'p90',
        'p99',
        'p99.9',
        'max',
        ...(withResources ? ['server CPU avg [m]', 'server memory avg [MiB]'] : []),
      ];
      out.push(`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`);
      reps.forEach((rep, i) => out.push(`| ${runCells(rep, i + 1, withResources ? serverUsage(rep, name) : undefined).join(' | ')} |`));
      const p99 = reps.flatMap((r) => (r.valid && r.latencyMs ? [r.latencyMs.p99] : []));
      if (p99.length > 0)
        out.push(
          '',
          `p99 between ${f(Math.min(...p99))} and ${f(Math.max(...p99))} ms over ${p99.length} valid run${p99.length === 1 ? '' : 's'}.`,
        );
    }
  }
  return `${out.join('\n')}\n`;
}

/** The echo servers of this mode: app containers and their sidecars in the mode's namespace. */
function serverUsage(rep: Repetition, mode: string): ResourceUsage[] {
  return (rep.resources ?? []).filter((u) => SERVER_GROUPS.has(u.group) && u.scope === mode);
}

function runCells(rep: Repetition, run: number, server: ResourceUsage[] | undefined): string[] {
  const l = rep.latencyMs;
  const cells = [
    rep.valid ? String(run) : `${run} (invalid: ${rep.invalidReasons.join('; ')})`,
    rep.achievedRps.toFixed(1),
    ...(l ? [l.min, l.p50, l.p75, l.p90, l.p99, l.p999, l.max].map(f) : Array(7).fill('—')),
  ];
  if (server) {
    cells.push(server.length ? total(server, 'cpu').toFixed(1) : '–', server.length ? total(server, 'mem').toFixed(1) : '–');
  }
  return cells;
}

function total(usage: ResourceUsage[], what: 'cpu' | 'mem'): number {
  return usage.reduce((sum, u) => sum + (what === 'cpu' ? u.cpuMillicores.avg : u.memoryMiB.avg), 0);
}

function f(ms: number): string {
  return ms.toFixed(ms < 10 ? 3 : 2);
}
