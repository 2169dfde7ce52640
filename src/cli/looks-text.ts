// What `mesh-perf plan` says about A/B arms and measuring until decided: which arms are compared,
// where the run looks, and what the budget allows.
import { armsFromBaseLines } from '../report/arms-from-base-text.ts';
import type { Config } from '../config/validate.ts';
import { meshOf } from '../config/schema.ts';
import { istioRevisionOf, type IstioRevision } from '../config/istio-revisions.ts';
import { lastLookSeconds, type LookPlan } from '../plan/looks.ts';
import { gatewayName } from '../platform/kubernetes/ingress.ts';
import { formatEstimate } from './preset-summary.ts';
import { minEffectPctOf } from '../config/sections/gates.ts';
import { PLANNING_SPREAD, smallestDecidable, smallestPassable } from '../analysis/ab/planning.ts';

/** "A/B: proxy-head against proxy-base on p50: pass within 5.00%, fail at alpha 1% over all looks". */
export function describeArms(config: Config): string[] {
  const ab = config.gates.ab;
  const fromBase = config.armsFromBase ? armsFromBaseLines(config.armsFromBase) : [];
  const pairs = armPairs(config);
  const family = abFamilySize(config);
  const over = family > 1 ? `over all looks and this run's ${family} A/B gates, Holm` : 'over all looks';
  const minimum =
    ab.statistics.length === 1
      ? `${minEffectPctOf(ab, ab.statistics[0]!)}%`
      : ab.statistics.map((s) => `${minEffectPctOf(ab, s)}% on ${s}`).join(', ');
  return fromBase.concat(
    pairs.flatMap((p) => [
      `A/B: ${p.head} against ${p.base} on ${ab.statistics.join(', ')}${ab.enabled ? `: pass when the change is shown under ${minimum} and ${ab.minEffectMs} ms (${round(ab.confidence * 100)}% confidence), fail when significantly slower (alpha ${ab.alpha} ${over})` : ' (gates.ab.enabled is false: measured, not gated)'}`,
      ...armDetails(config, p),
    ]),
    pairs.length > 0 ? [instancesLine(config)] : [],
  );
}

/** A/B gates of the run sharing its alpha: modes with arms × profiles × gated statistics. */
export function abFamilySize(config: Config): number {
  return armPairs(config).length * config.profiles.length * config.gates.ab.statistics.length;
}

/** How each arm's server instances are measured, by platform: what part of an instance's offset is in the interval. */
function instancesLine(config: Config): string {
  switch (config.platform) {
    case 'local':
      return "Instances: each arm's echo server (and its proxy hops) is started afresh for every block and warmed before it is measured, so one server process's offset varies from block to block and is in the interval, not taken for the change";
    case 'kind':
    case 'kubeconfig':
      return `Instances: each arm runs ${config.kubernetes.replicas} echo pods (kubernetes.replicas), spread over the same nodes as the other arm's; every repetition spreads its requests over them, so one pod's offset is averaged over ${config.kubernetes.replicas}, not estimated`;
    default:
      return 'Instances: each arm is one address (platform endpoints): an offset between the two servers themselves is not in the interval; run each arm on more than one server, or on the local or a cluster platform, to have it';
  }
}

/**
 * Per arm, what it runs with where the two differ: its Istio revision (always: each is a control
 * plane the run installs), then namespace labels and annotations, echo image, env, local settings.
 */
function armDetails(config: Config, pair: ArmPair): string[] {
  const base = config.modes.find((m) => m.name === pair.base)!;
  const head = config.modes.find((m) => m.name === pair.head)!;
  const differing = (pick: (m: typeof base) => Record<string, unknown> | undefined) => {
    const [b, h] = [pick(base) ?? {}, pick(head) ?? {}];
    return [...new Set([...Object.keys(b), ...Object.keys(h)])].filter((k) => JSON.stringify(b[k]) !== JSON.stringify(h[k]));
  };
  const keys = {
    labels: differing((m) => m.namespaceLabels),
    annotations: differing((m) => m.namespaceAnnotations),
    env: differing((m) => m.env),
    local: differing((m) => m.local),
  };
  const details = (mode: typeof base): string => {
    const parts: string[] = [];
    const revision = pair.revisions?.[mode.arm!.side];
    if (revision) {
      const set = Object.keys(revision.set).length;
      const waypoint = meshOf(mode) === 'istio-waypoint';
      parts.push(
        `Istio revision ${revision.revision} (${revision.version}${revision.hub ? `, hub ${revision.hub}` : ''}${set > 0 ? `, ${set} --set value${set === 1 ? '' : 's'}` : ''})${waypoint ? " for its waypoint (the ztunnel under both arms is the run's)" : ''}`,
      );
      if ((config.platform === 'kind' || config.platform === 'kubeconfig') && config.kubernetes.ingress)
        parts.push(`through its revision's own ingress gateway ${gatewayName(revision.revision)}`);
    }
    // An unset local delay or jitter is none at all; an unset label, annotation or env is absent.
    const pairs = (what: string, values: Record<string, unknown> | undefined, names: string[], unset = '(unset)') =>
      names.length > 0 &&
      parts.push(`${what} ${names.map((k) => `${k}=${values?.[k] === undefined ? unset : String(values[k])}`).join(', ')}`);
    pairs('namespace labels', mode.namespaceLabels, keys.labels);
    pairs('namespace annotations', mode.namespaceAnnotations, keys.annotations);
    if (base.echoImage !== head.echoImage) parts.push(`echo image ${mode.echoImage ?? config.kubernetes.images.echo}`);
    if (base.serverManifests !== head.serverManifests)
      parts.push(`server manifests ${mode.serverManifests ?? config.kubernetes.manifests.server ?? '(the built-in echo server)'}`);
    pairs('env', mode.env, keys.env);
    pairs('local', mode.local as Record<string, unknown> | undefined, keys.local, 'none');
    if (base.url !== head.url && mode.url) parts.push(`url ${mode.url}`);
    if (base.grpc !== head.grpc && mode.grpc) parts.push(`grpc ${mode.grpc}`);
    return parts.join('; ');
  };
  return [base, head].flatMap((mode) => {
    const text = details(mode);
    return text ? [`  ${mode.arm!.side} arm ${mode.name}: ${text}`] : [];
  });
}

export function describeLooks(config: Config, looks: LookPlan): string[] {
  const decidable = decidableLines(config, looks);
  if (looks.fixed) return decidable;
  const { budget } = config.plan;
  const last = looks.looks[looks.looks.length - 1]!;
  const lastSeconds = lastLookSeconds(looks);
  const limit =
    looks.limit === 'time'
      ? `plan.budget.maxDuration ${budget.maxDuration} holds ${last} blocks at the nominal repetition length, not plan.budget.maxBlocks ${budget.maxBlocks}: the last look is placed where the time ends`
      : `plan.budget.maxBlocks ${budget.maxBlocks}, within plan.budget.maxDuration ${budget.maxDuration}`;
  return [
    `load.repetitions auto: the table shows the first look (${looks.looks[0]} blocks); blocks are added for the modes that need them (${looks.extensionModes.map((m) => m.name).join(', ')}) until every gate decides${looks.looks.length > 1 ? `, looking at ${looks.looks.join(', ')} blocks` : ' (this budget holds no more)'}; at most ${last} blocks, ~${formatEstimate(lastSeconds)} of load (${limit}). The run measures its pace (k6 start-up makes a repetition longer than its nominal length) and moves a look the time cannot reach to where the time ends; the results say which looks it reached`,
    ...decidable,
  ];
}

/**
 * Per gated statistic, the smallest slowdown the budget's last look fails with 90 % power at a
 * planning per-block spread (analysis/ab/planning.ts), and a warning when the practical minimum
 * is below it: such a gate will mostly end inconclusive.
 */
function decidableLines(config: Config, looks: LookPlan): string[] {
  const ab = config.gates.ab;
  if (!ab.enabled || !config.modes.some((m) => m.arm)) return [];
  const family = abFamilySize(config);
  return ab.statistics.map((statistic) => {
    const spread = PLANNING_SPREAD[statistic];
    const smallest = smallestDecidable(looks.design, family, spread);
    const passable = smallestPassable(looks.design, spread);
    const minimum = minEffectPctOf(ab, statistic);
    const below = minimum < smallest * 100;
    return `A/B ${statistic}: at ${looks.design.looks[looks.design.looks.length - 1]} blocks this budget fails a slowdown of +${(smallest * 100).toFixed(1)}% or more with 90% power, and passes a clean change with 90% power when the practical minimum is at least ${(passable * 100).toFixed(1)}% (it is ${minimum}%), if the blocks spread ${(spread * 100).toFixed(0)}% (a planning figure${statistic === 'p50' ? '' : ' with bursty stalls'}; the run measures its own)${below ? `: the practical minimum ${minimum}% is below the slowdown it can catch, so this gate will mostly end inconclusive; set gates.ab.minEffectPct.${statistic} to at least ${Math.ceil(smallest * 100)}, or a longer load.duration or plan.budget` : ''}`;
  });
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
    ...(arms.length > 0 && config.gates.ab.enabled
      ? {
          ab: {
            gates: abFamilySize(config),
            alpha: config.gates.ab.alpha,
            smallestDecidable: Object.fromEntries(
              config.gates.ab.statistics.map((s) => [s, round(smallestDecidable(looks.design, abFamilySize(config), PLANNING_SPREAD[s]))]),
            ),
            smallestPassable: Object.fromEntries(
              config.gates.ab.statistics.map((s) => [s, round(smallestPassable(looks.design, PLANNING_SPREAD[s]))]),
            ),
          },
        }
      : {}),
  };
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** The arms of one mode, and their Istio revisions when they run under their own. */
interface ArmPair {
  of: string;
  base: string;
  head: string;
  revisions?: { base: IstioRevision; head: IstioRevision };
}

function armPairs(config: Config): ArmPair[] {
  const of = [...new Set(config.modes.flatMap((m) => (m.arm ? [m.arm.of] : [])))];
  return of.map((name) => {
    const [base, head] = (['base', 'head'] as const).map((side) => config.modes.find((m) => m.arm?.of === name && m.arm.side === side)!);
    const revisions = [base!, head!].map((m) => istioRevisionOf(m, config.kubernetes.istio));
    return {
      of: name,
      base: base!.name,
      head: head!.name,
      ...(revisions[0] && revisions[1] ? { revisions: { base: revisions[0], head: revisions[1] } } : {}),
    };
  });
}
