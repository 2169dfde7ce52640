import { loadEngineOf } from '../../config/engine-checks.ts';
import { K6_OPERATOR_VERSION } from '../../platform/kubernetes/k6-operator/version.ts';
import { INGRESS_USE_WAYPOINT, ingressPath } from '../../platform/kubernetes/mesh/modes.ts';
import { meshOf } from '../../config/schema.ts';
import { buildPlan, estimateSeconds, newSeed, scalingSeconds, scalingSteps } from '../../plan/plan.ts';
import { firstLookConfig, lastLookSeconds, lookPlan } from '../../plan/looks.ts';
import { jobEstimate } from '../../plan/job-estimate.ts';
import { jobEstimateText } from '../job-estimate-text.ts';
import { describeArms, describeLooks, looksJson } from '../looks-text.ts';
import { availableParallelism } from 'node:os';
import { cpuVariantHint, cpuWindowCheck, describeCpuWindow } from '../../plan/cpu-window.ts';
import { describeTailDistortion, tailDistortionCheck } from '../../plan/tail-distortion.ts';
import { wrap } from '../../report/terminal.ts';
import { fitColumns } from '../../util/text-table.ts';
import type { Command } from '../command.ts';
import { PRESETS } from '../../presets/index.ts';
import { formatEstimate, presetHeader } from '../preset-summary.ts';
import { AB_BASE_OPTION, AB_IMAGE_OPTIONS, DEFAULT_CONFIG, loadCommandConfig } from '../load-config.ts';
import { OVERRIDE_FLAGS, overrideOptions } from '../override-options.ts';
import { terminalWidth } from '../terminal-width.ts';
import { generatorCapacity, generatorChoices } from '../../load/preflight.ts';

export const command: Command = {
  name: 'plan',
  summary: 'Show the trials a config would run, in order, and check it, without running anything',
  usage: 'plan [--config FILE] [--ab-base-config FILE | --ab-head-image IMAGE] [--preset NAME] [--json] [overrides]',
  options: [
    { name: 'config', value: 'FILE', description: `Config file (default ./${DEFAULT_CONFIG})` },
    { name: 'json', description: 'Print the plan as JSON' },
    AB_BASE_OPTION,
    ...AB_IMAGE_OPTIONS,
    ...overrideOptions(OVERRIDE_FLAGS.plan),
  ],
  details:
    'Makes every check `run` makes before the load (files exist, rates and durations k6 can run on this machine, the endpoints answer) and reports every problem at once.',
  async run(context) {
    const config = await loadCommandConfig(context, { preflight: true, reachability: true });
    const looks = lookPlan(config);
    const plan = buildPlan(firstLookConfig(config, looks), config.plan.seed ?? newSeed());
    const seconds = estimateSeconds(plan);
    const cpuWindow = cpuWindowCheck(config);
    const distortion = tailDistortionCheck(config, availableParallelism());
    const operator = loadEngineOf(config.profiles) === 'k6-operator';
    // On a cluster: how many echo pods each trial runs against, and whether through the gateway.
    const cluster = config.platform === 'kind' || config.platform === 'kubeconfig';
    // auto on a cluster chooses from its nodes: read them (kubeconfig) or the kind cluster's shape.
    const clusterCapacity =
      cluster && config.profiles.some((p) => p.generators === 'auto')
        ? await (await import('../../platform/kubernetes/plan-capacity.ts')).clusterPlanCapacity(config) // loaded only for a cluster (its client is heavy)
        : undefined;
    const generators = generatorChoices(config, clusterCapacity?.capacity ?? generatorCapacity(config))?.map((g, i) =>
      clusterCapacity?.note && config.profiles[i]!.generators === 'auto' ? { ...g, choice: { count: 0, reason: clusterCapacity.note } } : g,
    );
    const steps = cluster ? scalingSteps(plan, config.kubernetes.replicas) : [];
    const scaling = scalingSeconds(steps);
    const ingress = cluster ? config.kubernetes.ingress : undefined;
    const podsOf = (t: (typeof plan.trials)[number]) => t.profile.replicas ?? config.kubernetes.replicas;
    // With an ingress, an istio-waypoint mode's traffic goes through the gateway, then its waypoint.
    const viaOf = (t: (typeof plan.trials)[number]) => {
      const mesh = meshOf(t.mode);
      return ingress ? ingressPath(mesh ?? 'baseline') : 'direct';
    };
    const waypointBehindGateway = ingress !== undefined && plan.trials.some((t) => viaOf(t) === 'gateway+waypoint');
    // The whole job: the platform's steps around the load (plan/step-times.ts), and the load from
    // the first look to the most load.repetitions auto may add.
    const job = jobEstimate(config, {
      first: seconds + scaling,
      max: (looks.fixed ? seconds : Math.max(seconds, lastLookSeconds(looks))) + scaling,
    });
    if (context.args.switches.has('json')) {
      const trials = plan.trials.map((t) => ({
        index: t.index,
        block: t.block,
        mode: t.mode.name,
        ...(t.mode.arm ? { arm: t.mode.arm } : {}),
        profile: t.profile.name,
        repetition: t.repetition,
        model: t.profile.model,
        rate: t.profile.rate ?? null,
        vus: t.profile.vus ?? null,
        duration: t.profile.duration,
        warmup: t.profile.warmup,
        ...(cluster ? { pods: podsOf(t), via: viaOf(t) } : {}),
      }));
      const extra = {
        job: {
          estimatedSeconds: job.seconds,
          loadSeconds: job.load,
          steps: [...job.before, ...job.after].map(({ step, label, count, seconds }) => ({ step, label, count, seconds })),
        },
        ...(cluster ? { scalingSteps: steps.length, scalingSeconds: scaling, ...(ingress ? { ingress } : {}) } : {}),
        ...(generators
          ? { generators: generators.map((g) => ({ profile: g.profile, count: g.choice.count, reason: g.choice.reason })) }
          : {}),
        ...(operator ? { loadEngine: { name: 'k6-operator', version: K6_OPERATOR_VERSION } } : {}),
      };
      const cpu = cpuWindow && {
        cpuPer1000Rps: { minimumDurationS: cpuWindow.minimumMs / 1000, shortProfiles: cpuWindow.shortProfiles.map((p) => p.name) },
      };
      const tail = distortion && {
        tailDistortion: {
          thresholdRps: distortion.thresholdRps,
          cores: distortion.cores,
          profiles: distortion.profiles.map((p) => p.name),
        },
      };
      context.stdout(
        `${JSON.stringify({ seed: plan.seed, order: plan.order, estimatedSeconds: seconds + scaling, loadSeconds: seconds, ...extra, ...cpu, ...tail, ...looksJson(config, looks), trials }, null, 2)}\n`,
      );
      return 0;
    }
    // The table numbers trials as results.json and the report do (the index, from 0).
    const rows = [['#', 'block', 'mode', 'profile', 'rep', 'load', 'duration', 'warm-up', ...(cluster ? ['pods', 'via'] : [])]];
    const scaledBefore = new Set(steps.map((s) => s.before));
    for (const t of plan.trials) {
      const load = t.profile.model === 'open' ? `${t.profile.rate ?? 'script'} rps` : `${t.profile.vus ?? 'script'} VUs`;
      // "→10" marks a trial that starts by scaling the mode to its pod count.
      const pods = `${scaledBefore.has(t.index) ? '→' : ''}${podsOf(t)}`;
      const via = { gateway: 'gw', 'gateway+waypoint': 'gw+wp', direct: 'direct' }[viaOf(t)];
      rows.push([
        String(t.index),
        String(t.block),
        t.mode.name,
        t.profile.name,
        `${t.repetition}/${t.profile.repetitions}`,
        load,
        t.profile.duration,
        t.profile.warmup,
        ...(cluster ? [pods, via] : []),
      ]);
    }
    // The preset's header describes the effective config (a file or flags may change it).
    const header = config.preset ? presetHeader(config.preset, PRESETS, config) : undefined;
    const columns = terminalWidth();
    const fit = (text: string) =>
      text
        .split('\n')
        .flatMap((line) => wrap(line, columns))
        .join('\n');
    if (header) context.stdout(`${fit(header.trimEnd())}\n\n`);
    const trials = plan.trials.length === 1 ? '1 trial' : `${plan.trials.length} trials`;
    const scalingNote =
      steps.length > 0
        ? `\n+ ${steps.length} scaling step${steps.length === 1 ? '' : 's'} (~${formatEstimate(scaling)}, estimated) = ~${formatEstimate(seconds + scaling)}`
        : '';
    const podsNote = steps.length > 0 ? 'pods: echo pods per mode; → scales the mode first\n' : '';
    const gatewayNote = ingress
      ? `via gw: Istio's ingress gateway, ${ingress.replicas} pod${ingress.replicas === 1 ? '' : 's'}, ${ingress.tls ? 'HTTPS (self-signed)' : 'HTTP'}\n${
          waypointBehindGateway
            ? `via gw+wp: the gateway, then the mode's waypoint (its namespace is labelled ${INGRESS_USE_WAYPOINT}=true; without that label Istio's gateways skip the waypoint)\n`
            : ''
        }`
      : '';
    // Trial, mode, profile, repetition and load first; the rest in a second table when narrow.
    const essential = new Set(['#', 'mode', 'profile', 'rep', 'load']);
    const table = fitColumns(
      rows[0]!.map((header, c) => ({
        header,
        cells: rows.slice(1).map((r) => r[c]!),
        essential: essential.has(header),
        left: c > 1 && c < 4,
      })),
      columns,
      false,
    );
    context.stdout(
      `${table}\n\n${fit(`${gatewayNote}${podsNote}${trials}, ${plan.order}, seed ${plan.seed}; ~${formatEstimate(seconds)} of load${scalingNote}`)}\n${fit(jobEstimateText(job))}\n`,
    );
    const width = Math.min(terminalWidth(), 100);
    for (const line of [...describeArms(config), ...describeLooks(config, looks)]) context.stdout(`${wrap(line, width).join('\n')}\n`);
    if (generators) {
      const lines = generators.map((g) => wrap(`k6 for "${g.profile}": ${g.choice.reason}`, width).join('\n'));
      context.stdout(`${lines.join('\n')}\n`);
    }
    if (operator)
      context.stdout(
        `${wrap(`k6 runs as k6-operator v${K6_OPERATOR_VERSION} TestRuns, one per repetition, its runners in the mode's namespace (the cluster must run k6-operator)`, Math.min(terminalWidth(), 100)).join('\n')}\n`,
      );
    // A blank line sets the warning apart from the notes above it.
    if (distortion) context.stdout(`\n${wrap(`Warning: ${describeTailDistortion(distortion)}`, width).join('\n')}\n`);
    if (cpuWindow) {
      const hint = cpuVariantHint(cpuWindow, config.preset, PRESETS);
      context.stdout(`${wrap(`${describeCpuWindow(cpuWindow)}${hint ? ` ${hint}` : ''}`, Math.min(terminalWidth(), 100)).join('\n')}\n`);
    }
    return 0;
  },
};
