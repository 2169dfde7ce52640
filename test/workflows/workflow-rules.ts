// Security rules every workflow and composite action of this repository must follow, as a
// checker the tests run over the real files and over known-bad samples (so the checker itself is
// proven to catch what it claims to).
import { parse } from 'yaml';

export interface Finding {
  file: string;
  where: string;
  rule: 'expression-in-run' | 'unpinned-action' | 'persisted-credentials' | 'pull-request-target' | 'no-permissions';
  detail: string;
}

/** First-party references that track our own major version instead of a SHA. */
export const FIRST_PARTY = /^org\/mesh-perf-action(\/[A-Za-z0-9_./-]+)?@v\d+$/;

type Obj = Record<string, unknown>;

export function checkWorkflowText(file: string, text: string, kind: 'workflow' | 'action'): Finding[] {
  const doc = parse(text) as Obj;
  const findings: Finding[] = [];
  if (kind === 'workflow') {
    const on = doc.on ?? doc[true as unknown as string];
    const triggers =
      typeof on === 'string' ? [on] : Array.isArray(on) ? on.map(String) : on && typeof on === 'object' ? Object.keys(on) : [];
    if (triggers.includes('pull_request_target'))
      findings.push({
        file,
        where: 'on',
        rule: 'pull-request-target',
        detail: 'pull_request_target runs with a write token next to PR code',
      });
    if (!('permissions' in doc))
      findings.push({ file, where: 'top level', rule: 'no-permissions', detail: 'declare permissions (least privilege) at the top level' });
    for (const [jobId, job] of Object.entries((doc.jobs ?? {}) as Obj)) {
      const j = job as Obj;
      if (typeof j.uses === 'string') checkUses(findings, file, `jobs.${jobId}`, j.uses);
      checkSteps(findings, file, `jobs.${jobId}`, j.steps);
    }
  } else {
    const runs = (doc.runs ?? {}) as Obj;
    checkSteps(findings, file, 'runs', runs.steps);
  }
  return findings;
}

function checkSteps(findings: Finding[], file: string, where: string, steps: unknown): void {
  if (!Array.isArray(steps)) return;
  steps.forEach((step: Obj, i) => {
    const at = `${where}.steps[${i}]${step.name ? ` (${String(step.name)})` : step.id ? ` (${String(step.id)})` : ''}`;
    // Any ${{ }} inside run: is substituted into the script before the shell parses it; untrusted
    // or not, values go through env: and are quoted there.
    if (typeof step.run === 'string' && step.run.includes('${{')) {
      findings.push({ file, where: at, rule: 'expression-in-run', detail: step.run.match(/\$\{\{[^}]*\}\}/)?.[0] ?? '${{' });
    }
    if (typeof step.uses === 'string') {
      checkUses(findings, file, at, step.uses);
      if (/^actions\/checkout@/.test(step.uses)) {
        const with_ = (step.with ?? {}) as Obj;
        if (with_['persist-credentials'] !== false)
          findings.push({ file, where: at, rule: 'persisted-credentials', detail: 'actions/checkout needs persist-credentials: false' });
      }
    }
  });
}

function checkUses(findings: Finding[], file: string, where: string, uses: string): void {
  if (uses.startsWith('./')) return;
  if (uses.startsWith('docker://')) {
    if (!/@sha256:[0-9a-f]{64}$/.test(uses))
      findings.push({ file, where, rule: 'unpinned-action', detail: `${uses} is not pinned by digest` });
    return;
  }
  if (FIRST_PARTY.test(uses)) return;
  if (!/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_./-]+@[0-9a-f]{40}$/.test(uses))
    findings.push({ file, where, rule: 'unpinned-action', detail: `${uses} is not pinned by a full commit SHA` });
}
