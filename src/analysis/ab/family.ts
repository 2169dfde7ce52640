// Every A/B gate of one run shares one alpha (gates.ab.alpha, 1 %): a run of five modes with arms
// judged at 1 % each raised a false alarm in about 5 % of clean runs. Holm's step-down, look by look:
// each gate starts with alpha ÷ (the run's A/B gates); when one fails at a look, every gate not yet
// failed is judged again at that look with alpha ÷ (gates not yet failed), until no more fail.
// Each gate's boundaries are its group-sequential design at its current share (design.ts,
// failLevels), which the graphical approach for group-sequential designs allows: a larger share
// recomputes every look's boundary with the same spending (Maurer & Bretz 2013). The pass
// statement ("within the minimum") is each gate's own confidence statement and is not shared.
// The dependence of the blocks (dependence.ts) is estimated once per statistic over every gate.
import type { AbGateSettings } from '../../config/sections/gates.ts';
import type { MetricId } from '../../results/metric-ids.ts';
import type { ModeResult } from '../../results/types.ts';
import type { SequentialDesign } from './design.ts';
import { type Dependence, dependenceOf } from './dependence.ts';
import { evaluateAbGate, lookOfGate, pairedBlocks } from './gate.ts';

export interface AbFamilyMember {
  mode: string;
  profile: string;
  statistic: MetricId;
  base: ModeResult | undefined;
  head: ModeResult | undefined;
}

export interface AbFamilyInput {
  members: readonly AbFamilyMember[];
  settings: AbGateSettings;
  design: SequentialDesign;
  look: { index: number; final: boolean; stoppedBy?: string };
}

export type AbGateOutcome = ReturnType<typeof evaluateAbGate>;

/** Every A/B gate of the run, in the members' order, judged at one alpha for the run. */
export function evaluateAbFamily(input: AbFamilyInput): AbGateOutcome[] {
  const { members, settings, design, look } = input;
  const logs = members.map((m) => pairedBlocks(m.base, m.head, m.statistic).map((p) => Math.log(p.mode / p.baseline)));
  const dependenceAt = dependenceByStatistic(members, logs);
  const judge = (i: number, share: number): AbGateOutcome => {
    const member = members[i]!;
    const blocks = design.looks[lookOfGate(design, look.index, logs[i]!.length)]!;
    return evaluateAbGate({
      ...member,
      settings,
      design,
      look,
      alphaShare: share,
      family: members.length,
      dependence: dependenceAt(member.statistic, blocks),
    });
  };
  const outcomes = members.map((_, i) => judge(i, 1 / members.length));
  let failed = outcomes.filter((o) => o.evidence.decision === 'fail').length;
  for (let before = -1; failed > before && failed < members.length; ) {
    before = failed;
    const share = 1 / (members.length - failed);
    outcomes.forEach((o, i) => {
      if (o.evidence.decision !== 'fail') outcomes[i] = judge(i, share);
    });
    failed = outcomes.filter((o) => o.evidence.decision === 'fail').length;
  }
  return outcomes;
}

/**
 * The pooled dependence of a statistic's gates over their first `blocks` blocks: what a gate
 * judged at an earlier look saw then (the later blocks of other gates do not move its decision).
 */
function dependenceByStatistic(members: readonly AbFamilyMember[], logs: readonly number[][]) {
  const memo = new Map<string, Dependence>();
  return (statistic: MetricId, blocks: number): Dependence => {
    const key = `${statistic}/${blocks}`;
    let found = memo.get(key);
    if (!found) {
      found = dependenceOf(members.flatMap((m, i) => (m.statistic === statistic ? [logs[i]!.slice(0, blocks)] : [])));
      memo.set(key, found);
    }
    return found;
  };
}
