// What `mesh-perf plan` says about A/B arms and measuring until decided: which arms are compared,
// where the run looks, and what the budget allows.
import { armsFromBaseLines } from '../report/arms-from-base-text.ts';
import type { Config } from '../config/validate.ts';
import { meshOf } from '../config/schema.ts';
import { istioRevisionOf, type IstioRevision } from '../config/istio-revisions.ts';
import type { LookPlan } from '../plan/looks.ts';
import { gatewayName } from '../platform/kubernetes/ingress.ts';
import { formatEstimate } from './preset-summary.ts';

/** "A/B: proxy-head against proxy-base on p50: pass within 5.00%, fail at alpha 1% over all looks". */
export function describeArms(config: Config): string[] {
  const ab = config.gates.ab;
  const fromBase = config.armsFromBase ? armsFromBaseLines(config.armsFromBase) : [];
  return fromBase.concat(
    armPairs(config).flatMap((p) => [
      `A/B: ${p.head} against ${p.base} on ${ab.statistics.join(', ')}${ab.enabled ? `: pass when the change is shown under ${ab.minEffectPct}% and ${ab.minEffectMs} ms (${round(ab.confidence * 100)}% confidence), fail when significantly slower (alpha ${ab.alpha} over all looks)` : ' (gates.ab.enabled is false: measured, not gated)'}`,
      ...armDetails(config, p),
    ]),
  );
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
