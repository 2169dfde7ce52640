// What `mesh-perf plan` says about A/B arms and measuring until decided: which arms are compared,
// where the run looks, and what the budget allows.
import { armsFromBaseLines } from '../report/arms-from-base-text.ts';
import type { Config } from '../config/validate.ts';
import type { LookPlan } from '../plan/looks.ts';
import { formatEstimate } from './preset-summary.ts';

/** "A/B: proxy-head against proxy-base on p50: pass within 5.00%, fail at alpha 1% over all looks". */
export function describeArms(config: Config): string[] {
  const ab = config.gates.ab;
  const fromBase = config.armsFromBase ? armsFromBaseLines(config.armsFromBase) : [];
  return fromBase.concat(
    armPairs(config).map(
      (p) =>
        `A/B: ${p.head} against ${p.base} on ${ab.statistics.join(', ')}${ab.enabled ? `: pass when the change is shown under ${ab.minEffectPct}% and ${ab.minEffectMs} ms (${round(ab.confidence * 100)}% confidence), fail when significantly slower (alpha ${ab.alpha} over all looks)` : ' (gates.ab.enabled is false: measured, not gated)'}`,
    ),
  );
}

export function describeLooks(config: Config, looks: LookPlan): string[] {
  if (looks.fixed) return [];
  const { budget } = config.plan;
  const last = looks.looks[looks.looks.length - 1]!;
  const lastSeconds = looks.firstLookSeconds + (last - looks.looks[0]!) * looks.extensionBlockSeconds;
  const limit =
    looks.limit === 'time'
      ? `plan.budget.maxDuration ${budget.maxDuration} holds ${last} blocks (plan.budget.maxBlocks ${budget.maxBlocks})`
      : `plan.budget.maxBlocks ${budget.maxBlocks}, within plan.budget.maxDuration ${budget.maxDuration}`;
  return [
    `load.repetitions auto: the table shows the first look (${looks.looks[0]} blocks); blocks are added for the modes that need them (${looks.extensionModes.map((m) => m.name).join(', ')}) until every gate decides${looks.looks.length > 1 ? `, looking at ${looks.looks.join(', ')} blocks` : ' (this budget holds no more)'}; at most ${last} blocks, ~${formatEstimate(lastSeconds)} of load (${limit})`,
  ];
}

export function looksJson(config: Config, looks: LookPlan): Record<string, unknown> {
  const arms = armPairs(config);
  return {
    ...(arms.length > 0 ? { arms } : {}),
    ...(config.armsFromBase ? { armsFromBase: config.armsFromBase } : {}),
    repetitions: looks.fixed ? 'fixed' : 'auto',
    looks: looks.looks,
    budget: {
      maxBlocks: looks.maxBlocks,
      limit: looks.limit,
      maxDuration: config.plan.budget.maxDuration,
      firstLookSeconds: looks.firstLookSeconds,
      blockSeconds: looks.extensionBlockSeconds,
    },
  };
}

const round = (n: number) => Math.round(n * 1000) / 1000;

function armPairs(config: Config): { of: string; base: string; head: string }[] {
  const of = [...new Set(config.modes.flatMap((m) => (m.arm ? [m.arm.of] : [])))];
  return of.map((name) => ({
    of: name,
    base: config.modes.find((m) => m.arm?.of === name && m.arm.side === 'base')!.name,
    head: config.modes.find((m) => m.arm?.of === name && m.arm.side === 'head')!.name,
  }));
}
