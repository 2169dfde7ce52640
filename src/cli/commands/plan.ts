import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '../../config/load.ts';
import { buildPlan, estimateSeconds, newSeed, scalingSeconds, scalingSteps } from '../../plan/plan.ts';
import { cpuWindowCheck, describeCpuWindow } from '../../plan/cpu-window.ts';
import { alignTable } from '../../report/terminal.ts';
import type { Command } from '../command.ts';
import { PRESETS } from '../../presets/index.ts';
import { presetHeader } from '../preset-summary.ts';
import { OVERRIDE_OPTIONS, overrideValues } from '../override-options.ts';

export const command: Command = {
  name: 'plan',
  summary: 'Show the trials a config would run, in order, without running them',
  usage: 'plan [--config FILE] [--preset NAME] [--json]',
  options: [
    { name: 'config', value: 'FILE', description: 'Config file (default ./mesh-perf.yaml)' },
    { name: 'json', description: 'Print the plan as JSON' },
    ...OVERRIDE_OPTIONS,
  ],
  async run(context) {
    const file = resolve(context.cwd, context.args.options.config ?? 'mesh-perf.yaml');
    const useFile = context.args.options.config !== undefined || existsSync(file) || context.args.options.preset === undefined;
    const config = await loadConfig({ file: useFile ? file : undefined, overrides: overrideValues(context.args) });
    const plan = buildPlan(config, config.plan.seed ?? newSeed());
    const seconds = estimateSeconds(plan);
    const cpuWindow = cpuWindowCheck(config);
    // On a cluster: how many echo pods each trial runs against, and whether through the gateway.
    const cluster = config.platform === 'kind' || config.platform === 'kubeconfig';
    const steps = cluster ? scalingSteps(plan, config.kubernetes.replicas) : [];
    const scaling = scalingSeconds(steps);
    const ingress = cluster ? config.kubernetes.ingress : undefined;
    const podsOf = (t: (typeof plan.trials)[number]) => t.profile.replicas ?? config.kubernetes.replicas;
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
        ...(cluster ? { pods: podsOf(t), via: ingress ? 'gateway' : 'direct' } : {}),
      }));
      const extra = cluster ? { scalingSteps: steps.length, scalingSeconds: scaling, ...(ingress ? { ingress } : {}) } : {};
      const cpu = cpuWindow && { cpuPer1000Rps: { minimumDurationS: cpuWindow.minimumMs / 1000, shortProfiles: cpuWindow.shortProfiles.map((p) => p.name) } };
      context.stdout(`${JSON.stringify({ seed: plan.seed, order: plan.order, estimatedSeconds: seconds + scaling, loadSeconds: seconds, ...extra, ...cpu, trials }, null, 2)}\n`);
      return 0;
    }
    const rows = [['#', 'block', 'mode', 'profile', 'rep', 'load', 'duration', 'warm-up', ...(cluster ? ['pods', 'via'] : [])]];
    const scaledBefore = new Set(steps.map((s) => s.before));
    for (const t of plan.trials) {
      const load = t.profile.model === 'open' ? `${t.profile.rate ?? 'script'} rps` : `${t.profile.vus ?? 'script'} VUs`;
      // "→10" marks a trial that starts by scaling the mode to its pod count.
      const pods = `${scaledBefore.has(t.index) ? '→' : ''}${podsOf(t)}`;
      const via = ingress ? 'gw' : 'direct';
      rows.push([String(t.index + 1), String(t.block), t.mode.name, t.profile.name, `${t.repetition}/${t.profile.repetitions}`, load, t.profile.duration, t.profile.warmup, ...(cluster ? [pods, via] : [])]);
    }
    const header = context.args.options.preset ? presetHeader(context.args.options.preset, PRESETS) : undefined;
    if (header) context.stdout(`${header.trimEnd()}\n\n`);
    const scalingNote = steps.length > 0 ? `\n+ ${steps.length} scaling step${steps.length === 1 ? '' : 's'} (~${formatMinutes(scaling)}, estimated) = about ${formatMinutes(seconds + scaling)}` : '';
    const podsNote = steps.length > 0 ? 'pods: echo pods per mode; → scales the mode first\n' : '';
    const gatewayNote = ingress ? `via gw: Istio's ingress gateway, ${ingress.replicas} pod${ingress.replicas === 1 ? '' : 's'}, ${ingress.tls ? 'HTTPS (self-signed)' : 'HTTP'}\n` : '';
    context.stdout(`${alignTable(rows)}\n\n${gatewayNote}${podsNote}${plan.trials.length} trials, ${plan.order}, seed ${plan.seed}; about ${formatMinutes(seconds)} of load${scalingNote}${scalingNote ? '\n' : ' '}(setup not included)\n`);
    if (cpuWindow) context.stdout(`${wrap(describeCpuWindow(cpuWindow), 80)}\n`);
    return 0;
  },
};

function wrap(text: string, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join('\n');
}

function formatMinutes(seconds: number): string {
  return seconds < 120 ? `${Math.round(seconds)} s` : `${(seconds / 60).toFixed(1)} min`;
}
