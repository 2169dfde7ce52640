import { buildPlan, estimateSeconds, newSeed } from '../../plan/plan.ts';
import { alignTable } from '../../report/terminal.ts';
import type { Command } from '../command.ts';
import { PRESETS } from '../../presets/index.ts';
import { formatEstimate, presetHeader } from '../../presets/summary.ts';
import { DEFAULT_CONFIG, loadCommandConfig } from '../load-config.ts';
import { OVERRIDE_FLAGS, overrideOptions } from '../override-options.ts';

export const command: Command = {
  name: 'plan',
  summary: 'Show the trials a config would run, in order, and check it, without running anything',
  usage: 'plan [--config FILE] [--preset NAME] [--json] [overrides]',
  options: [
    { name: 'config', value: 'FILE', description: `Config file (default ./${DEFAULT_CONFIG})` },
    { name: 'json', description: 'Print the plan as JSON' },
    ...overrideOptions(OVERRIDE_FLAGS.plan),
  ],
  details: 'Makes every check `run` makes before the load (files exist, rates and durations k6 can run on this machine).',
  async run(context) {
    const config = await loadCommandConfig(context, { preflight: true });
    const plan = buildPlan(config, config.plan.seed ?? newSeed());
    const seconds = estimateSeconds(plan);
    if (context.args.switches.has('json')) {
      const trials = plan.trials.map((t) => ({
        index: t.index,
        block: t.block,
        mode: t.mode.name,
        profile: t.profile.name,
        repetition: t.repetition,
        model: t.profile.model,
        rate: t.profile.rate ?? null,
        vus: t.profile.vus ?? null,
        duration: t.profile.duration,
        warmup: t.profile.warmup,
      }));
      context.stdout(`${JSON.stringify({ seed: plan.seed, order: plan.order, estimatedSeconds: seconds, trials }, null, 2)}\n`);
      return 0;
    }
    // The table numbers trials as results.json and the report do (the index, from 0).
    const rows = [['#', 'block', 'mode', 'profile', 'rep', 'load', 'duration', 'warm-up']];
    for (const t of plan.trials) {
      const load = t.profile.model === 'open' ? `${t.profile.rate ?? 'script'} rps` : `${t.profile.vus ?? 'script'} VUs`;
      rows.push([String(t.index), String(t.block), t.mode.name, t.profile.name, `${t.repetition}/${t.profile.repetitions}`, load, t.profile.duration, t.profile.warmup]);
    }
    // The preset's header describes the effective config (a file or flags may change it).
    const header = config.preset ? presetHeader(config.preset, PRESETS, config) : undefined;
    if (header) context.stdout(`${header.trimEnd()}\n\n`);
    const trials = plan.trials.length === 1 ? '1 trial' : `${plan.trials.length} trials`;
    context.stdout(`${alignTable(rows)}\n\n${trials}, ${plan.order}, seed ${plan.seed}; ~${formatEstimate(seconds)} of load (setup not included)\n`);
    return 0;
  },
};
