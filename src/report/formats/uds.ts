// Source benchmark 004 as a document: per scenario (load profile × mode × repetition) a heading in the source benchmark's
// words, the vegeta-style block and the namespace CPU/memory table, each in a code fence.
import type { RunResult } from '../../results/types.ts';
import { findMode, modeNames, profileNames, recordedProfile } from './aggregate.ts';
import { renderNamespaceTable } from './namespace-table.ts';
import { renderVegetaBlock } from './vegeta.ts';
import { noResourcesReason } from '../no-resources.ts';

const KUBERNETES = new Set(['kind', 'kubeconfig']);

export function renderUdsReport(result: RunResult): string {
  const modes = modeNames(result);
  const out = [
    `# ${result.run.suite}: vegeta-style report`,
    '',
    `Run ${result.run.id}, ${result.run.startedAt}, platform ${result.run.platform}. Latencies and rates from k6; bytes are wire bytes including headers (vegeta counts bodies only).`,
  ];
  for (const profile of profileNames(result)) {
    for (const name of modes) {
      const mode = findMode(result, name, profile);
      if (!mode) continue;
      mode.repetitions.forEach((rep, i) => {
        const repetition = mode.repetitions.length > 1 ? `, repetition ${i + 1} of ${mode.repetitions.length}` : '';
        const modeNote = modes.length > 1 ? ` (${name})` : '';
        out.push('', `### ${scenarioTitle(result, profile, name)}${modeNote}${repetition}`, '');
        if (!rep.valid) out.push(`**Invalid repetition, not compared:** ${rep.invalidReasons.join('; ')}`, '');
        out.push('```', renderVegetaBlock(rep).trimEnd(), '```', '');
        if (rep.resources && rep.resources.length > 0) out.push('```', renderNamespaceTable(rep.resources).trimEnd(), '```');
        else out.push(`_No CPU/memory figures: ${noResourcesReason(result.run.platform)}._`);
      });
    }
  }
  return `${out.join('\n')}\n`;
}

/** "20 requests per second to a single Pod", "50 requests per second loadbalanced between 10 Pods". */
function scenarioTitle(result: RunResult, profileName: string, mode: string): string {
  const profile = recordedProfile(result, profileName);
  const load =
    profile?.model === 'closed'
      ? `${profile.vus} virtual users`
      : profile?.rate !== undefined
        ? `${profile.rate} requests per second`
        : profileName;
  if (!KUBERNETES.has(result.run.platform)) return `${load} to ${mode}`;
  // The profile's own pod count (load[].replicas, one job over the seed's matrix), else the run's.
  const own = (profile as { replicas?: unknown } | undefined)?.replicas;
  const replicas = typeof own === 'number' ? own : (result.config as { kubernetes?: { replicas?: unknown } }).kubernetes?.replicas;
  const pods = typeof replicas === 'number' ? replicas : 1;
  return pods === 1 ? `${load} to a single Pod` : `${load} loadbalanced between ${pods} Pods`;
}
