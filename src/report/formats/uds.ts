// Source benchmark 004 as a document: per scenario (load profile × mode × repetition) a heading in the source benchmark's
// words, the vegeta-style block and the namespace CPU/memory table, each in a code fence.
import { findMode, modeNames, profileNames, recordedProfile } from './aggregate.ts';
import { renderNamespaceTable } from './namespace-table.ts';
import { renderVegetaBlock } from './vegeta.ts';
import { noResourcesReason } from '../no-resources.ts';
import type { RunView } from '../view.ts';

const KUBERNETES = new Set(['kind', 'kubeconfig']);

export function renderUdsReport(view: RunView): string {
  const modes = modeNames(view);
  const out = [
    `# ${view.run.suite}: vegeta-style report`,
    '',
    `Run ${view.run.id}, ${view.run.startedAt}, platform ${view.run.platform}. Latencies and rates from k6; bytes are wire bytes including headers (vegeta counts bodies only).`,
  ];
  for (const profile of profileNames(view)) {
    for (const name of modes) {
      const mode = findMode(view, name, profile);
      if (!mode) continue;
      mode.records.forEach((rep, i) => {
        const repetition = mode.records.length > 1 ? `, repetition ${i + 1} of ${mode.records.length}` : '';
        const modeNote = modes.length > 1 ? ` (${name})` : '';
        out.push('', `### ${scenarioTitle(view, profile, name)}${modeNote}${repetition}`, '');
        if (!rep.valid) out.push(`**Invalid repetition, not compared:** ${rep.invalidReasons.join('; ')}`, '');
        out.push('```', renderVegetaBlock(rep).trimEnd(), '```', '');
        if (rep.resources && rep.resources.length > 0) out.push('```', renderNamespaceTable(rep.resources).trimEnd(), '```');
        else out.push(`_No CPU/memory figures: ${noResourcesReason(view.run.platform)}._`);
      });
    }
  }
  return `${out.join('\n')}\n`;
}

/** "20 requests per second to a single Pod", "50 requests per second loadbalanced between 10 Pods". */
function scenarioTitle(view: RunView, profileName: string, mode: string): string {
  const profile = recordedProfile(view, profileName);
  const load =
    profile?.model === 'closed'
      ? `${profile.vus} virtual users`
      : profile?.rate !== undefined
        ? `${profile.rate} requests per second`
        : profileName;
  if (!KUBERNETES.has(view.run.platform)) return `${load} to ${mode}`;
  // The profile's own pod count (load[].replicas, one job over the seed's matrix), else the run's.
  const own = (profile as { replicas?: unknown } | undefined)?.replicas;
  const replicas = typeof own === 'number' ? own : (view.config as { kubernetes?: { replicas?: unknown } }).kubernetes?.replicas;
  const pods = typeof replicas === 'number' ? replicas : 1;
  return pods === 1 ? `${load} to a single Pod` : `${load} loadbalanced between ${pods} Pods`;
}
