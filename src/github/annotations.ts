// Annotations shown on the run page: one error per failed gate, one warning per inconclusive gate,
// one warning per invalid
// repetition and per comparison that is reported, not gated, but would be a regression (the
// baseline's own raw values: a slower runner or a slower workload, worth a look, not a failure).
// Pure; main.ts hands them to core.error / core.warning.
import type { GateView, RunView } from '../report/view.ts';
import { gateDetail } from './tables.ts';

/** How the results stage words a failed threshold of the user's own k6 script. */
export const SCRIPT_THRESHOLD = /^script threshold failed: /;

export interface Annotation {
  level: 'error' | 'warning';
  title: string;
  message: string;
}

export function annotationsFor(view: RunView): Annotation[] {
  const out: Annotation[] = [];
  const failed = view.gates.filter((g) => g.result.decision === 'fail');
  for (const gate of failed) out.push({ level: 'error', title: `mesh-perf gate failed: ${gate.result.gate}`, message: gateMessage(gate) });
  // A user's k6 script thresholds are gates too; they reach us as verdict reasons, not analysis gates.
  const scriptFailures = view.reasons.filter((r) => SCRIPT_THRESHOLD.test(r));
  for (const reason of scriptFailures) out.push({ level: 'error', title: 'mesh-perf gate failed', message: reason });
  // A fail verdict without gate details (analysis absent or unreadable) still gets one error per reason.
  if (view.verdict === 'fail' && failed.length === 0 && scriptFailures.length === 0) {
    for (const reason of view.reasons.length > 0 ? view.reasons : ['the run failed its gates']) {
      out.push({ level: 'error', title: 'mesh-perf gate failed', message: reason });
    }
  }
  // Inconclusive exits 0 by default (gates.regression.inconclusive: warn); the warning says why.
  for (const gate of view.gates.filter((g) => g.result.decision === 'inconclusive')) {
    out.push({ level: 'warning', title: `mesh-perf inconclusive: ${gate.result.gate}`, message: gateMessage(gate) });
  }
  for (const gate of view.gates.filter((g) => g.wouldFail)) {
    out.push({ level: 'warning', title: `mesh-perf not gated, would be a regression: ${gate.result.gate}`, message: gateMessage(gate) });
  }
  for (const rep of view.invalid) {
    out.push({
      level: 'warning',
      title: `mesh-perf invalid repetition: ${rep.mode}`,
      message: `${rep.mode} (${rep.profile}) trial ${rep.trial}${rep.round > 1 ? `, round ${rep.round}` : ''}: ${rep.reasons.join('; ')}. Invalid repetitions are reported, never compared.`,
    });
  }
  return out;
}

/** "mode · profile: the gate's line". */
function gateMessage(gate: GateView): string {
  return `${gate.result.mode} · ${gate.result.profile}: ${gateDetail(gate)}`;
}
