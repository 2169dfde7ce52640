// The error gate every mode gets without asking: failed requests above load.maxErrorRate fail
// the run, whatever the latency says (a dead service answers fast). The rate is failures ÷
// requests pooled over every repetition of the mode, valid or not: a repetition made invalid by
// the failures themselves (timeouts holding every VU, so iterations drop) must still count. One
// whose path lost a pod or a container while it ran (repetitions[].disruptions: an echo pod
// evicted, a proxy restarted from outside) does not: its failures are that fault's, named in its
// reason, not the mode's; a proxy the load crashed fails the run on its own (verdict.ts). The
// gate is listed for every mode that sent requests, passed ones too: it judged them, and a report
// that listed no gate said "No gates configured" about a run this gate had passed.
import type { LoadProfile } from '../config/validate.ts';
import type { ModeResult } from '../results/types.ts';
import { sumCauses } from '../results/errors.ts';
import { pooledErrorRate } from './summary.ts';
import type { GateEvidence } from '../results/evidence.ts';

export const ERROR_GATE = 'load.maxErrorRate';
export const DEFAULT_MAX_ERROR_RATE = 0.01;

export function evaluateErrorGate(mode: ModeResult, profile: Pick<LoadProfile, 'maxErrorRate'> | undefined): GateEvidence | undefined {
  const counted = mode.repetitions.filter((r) => !r.disruptions?.length);
  const requests = counted.reduce((n, r) => n + r.requests, 0);
  const failures = counted.reduce((n, r) => n + r.failures, 0);
  // Nothing ran: validity says so, and there was nothing for this gate to judge.
  if (requests === 0) return undefined;
  const limit = profile?.maxErrorRate ?? DEFAULT_MAX_ERROR_RATE;
  const rate = pooledErrorRate(counted);
  const decision = rate > limit ? 'fail' : 'pass';
  return {
    kind: 'threshold',
    gate: ERROR_GATE,
    mode: mode.name,
    profile: mode.profile,
    metric: 'errorRate',
    measure: 'value',
    unit: 'fraction',
    value: { value: rate },
    limit: { op: '<=', value: limit },
    decision,
    errors: { failures, requests, causes: sumCauses(counted) },
  };
}
