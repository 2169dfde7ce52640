// A confirmation's words, made once when it is decided and stored with it (as the analysis's
// are): the verdict in one line, then what supports it: each run it made and each A/B gate's
// figures, the setting it named, what could not be an arm and why, where the runs ran differently.
// Pure.
import type { ConfirmationRecord, ConfirmGroupResult, ConfirmRound } from '../confirm/record.ts';
import type { ConfirmationDraft } from '../confirm/run.ts';
import type { FixedReason, SettingChange } from '../confirm/settings.ts';
import { msWithUnit, signedPercent, significant, sizePercent } from './numbers.ts';

type Draft = ConfirmationDraft;

/** Why a difference cannot be one of two arms of one run. */
export const FIXED_WORDS: Record<FixedReason, string> = {
  platform: 'the platform: both arms run on one',
  tool: 'mesh-perf itself: one version measures both arms',
  k6: 'k6 (its binary, version or client image): one measures both arms',
  'node-runtime': 'Node.js, which runs the local echo server: one per run',
  cluster: 'the cluster (Kubernetes, its nodes, kind): both arms run in one',
  'mesh-version': "the cluster's own Istio (not installed by mesh-perf): an arm cannot carry another",
  'one-ztunnel': "an ambient mode's data plane is one ztunnel per node, shared by every namespace",
  'linkerd-control-plane':
    "one Linkerd control plane per cluster (a proxy's per-workload settings can be arms, as config.linkerd.io annotations)",
  'control-plane-image': 'a control plane or node agent runs once per cluster',
  'pod-image': "the mode's pods ran another image though no setting says so",
  script: 'the k6 script: one drives both arms',
  'load-profile': 'the load profile: both arms take one load',
  resources: 'run-wide requests and limits: one set per run',
  'mode-setting': 'a setting of the mode an arm cannot hold (its mesh, a fixed port)',
  'enrolment-key': 'a key the mesh sets to enrol the namespace',
  'baseline-mode': "the baseline mode's settings: a ratio series is confirmed on its own mode's settings",
  redacted: 'a secret, redacted in the stored results',
  'manifests-unavailable': "the earlier run's server manifests with that content are not in this checkout's history",
};

const series = (r: Draft) => `${r.profile} · ${r.mode} · ${r.metric === 'ratio' ? 'p50 ratio to baseline' : r.metric}`;

export function settingText(c: SettingChange): string {
  return `${c.path} ${c.before} → ${c.after}`;
}

/** "+5.31% [+4.10%, +6.52%]". */
function changeText(g: ConfirmGroupResult): string {
  return g.change ? `${signedPercent(g.change.value)} [${signedPercent(g.change.low)}, ${signedPercent(g.change.high)}]` : 'no figure';
}

function names(settings: readonly string[], r: Draft): string {
  const byPath = new Map(r.settings.map((s) => [s.path, s]));
  const one = (path: string) => (byPath.has(path) ? settingText(byPath.get(path)!) : path);
  return settings.length <= 2
    ? settings.map(one).join(' and ')
    : `${settings.slice(0, -1).map(one).join(', ')} and ${one(settings.at(-1)!)}`;
}

function levelText(r: Draft): string {
  const l = r.level!;
  const show = (v: number) => (l.statistic.includes('ratio') ? `×${significant(v)}` : msWithUnit(v));
  return `today's ${l.statistic} ${show(l.today)} is nearer the ${l.moved ? 'later' : 'earlier'} segment's ${show(l.moved ? l.after : l.before)} than the ${l.moved ? 'earlier' : 'later'} one's ${show(l.moved ? l.before : l.after)}`;
}

function firstGate(r: Draft): ConfirmGroupResult | undefined {
  return r.rounds[0]?.groups[0];
}

export function verdictLine(r: Draft): string {
  const gate = firstGate(r);
  const minimum = gate?.minimum !== undefined ? sizePercent(gate.minimum) : 'the practical minimum';
  const fixedList = r.fixed.map((f) => `${f.key} ${f.before} → ${f.after} (${FIXED_WORDS[f.why]})`).join('; ');
  switch (r.reason) {
    case 'ab-fail': {
      const named = (r.culprits ?? []).map(
        (c) => `${names(c.settings, r)}${c.together && c.settings.length > 1 ? ' (only together)' : ''}`,
      );
      const cause =
        named.length > 0
          ? named.join('; ')
          : names(
              r.settings.map((s) => s.path),
              r,
            );
      return `confirmed: ${cause} moved ${series(r)} by ${gate ? changeText(gate) : 'the step'} in a same-run A/B (${gate?.blocks ?? 0} blocks)`;
    }
    case 'ab-within':
      return `withdrawn: ${names(
        r.settings.map((s) => s.path),
        r,
      )} measure ${gate ? changeText(gate) : ''} in a same-run A/B, within ${minimum}: the step was noise or the environment`;
    case 'ab-within-fixed':
      return `cannot re-run: ${names(
        r.settings.map((s) => s.path),
        r,
      )} measure ${gate ? changeText(gate) : ''} in a same-run A/B, within ${minimum}; what else changed cannot be an arm here: ${fixedList}`;
    case 'ab-inconclusive':
      return `inconclusive: the same-run A/B of ${names(
        r.settings.map((s) => s.path),
        r,
      )} measured ${gate ? changeText(gate) : 'nothing'} and could not tell it from ${minimum} in ${gate?.blocks ?? 0} blocks; the alert stays unconfirmed`;
    case 'level-persists':
      return `environment: nothing an arm can carry differed, and ${levelText(r)} in an A/A of today's settings: the runner moved`;
    case 'level-back':
      return `withdrawn: nothing an arm can carry differed, and ${levelText(r)} in an A/A of today's settings: the step did not hold`;
    case 'fixed-only':
      return `cannot re-run: what changed cannot be an arm here: ${fixedList}`;
    case 'runs-gone':
      return `cannot re-run: the results of run ${r.before} or ${r.after} are gone from the history (retention removed them)`;
    case 'metric':
      return `cannot re-run: the A/B gate judges latency; a change point in the ${r.metric === 'err' ? 'error rate' : 'CPU per 1000 rps'} is not confirmed this way`;
    case 'not-in-config':
      return `cannot re-run: the later run ${r.after} has no mode ${r.mode} or load profile ${r.profile} in its stored config`;
    case 'secrets':
      return `cannot re-run: the stored runs mask ${r.fixed.map((f) => f.key).join(', ')} and today's config does not hold ${r.fixed.length === 1 ? 'it' : 'them'} (pass the config the daily runs use)`;
    case 'refused':
      return `cannot re-run: the confirmation run's config was refused: ${r.problem ?? 'no reason given'}`;
    case 'run-invalid':
      return `invalid: the confirmation run was invalid${r.rounds[0]?.invalid?.length ? ` (${r.rounds[0].invalid[0]})` : ''}; the alert stays unconfirmed, not withdrawn`;
    case 'aa-failed':
      return `invalid: an A/A of today's settings failed (${gate ? changeText(gate) : ''}): this runner cannot tell a step from its own noise today; the alert stays unconfirmed`;
    case 'budget':
      return 'not run: the budget of confirmations for today is spent (confirm.perDay); the alert stays unconfirmed';
  }
}

function roundLine(round: ConfirmRound, r: Draft): string[] {
  const what = round.purpose === 'aa' ? "A/A of today's settings" : round.purpose === 'ab' ? "A/B of both runs' settings" : 'bisection';
  const head = `${what}: run ${round.runId}, ${significant(round.elapsedS)} s${round.verdict === 'invalid' ? `, invalid (${(round.invalid ?? []).join('; ')})` : ''}`;
  const groups = round.groups.map((g) => {
    const label = round.purpose === 'bisect' ? `head with ${names(g.settings, r)}` : 'head vs base';
    return `  ${label}: ${changeText(g)} in ${g.blocks} blocks → ${g.decision}`;
  });
  return [head, ...groups];
}

export function confirmationDetails(r: Draft): string[] {
  const out: string[] = [];
  for (const round of r.rounds) out.push(...roundLine(round, r));
  if (r.level && r.reason !== 'level-persists' && r.reason !== 'level-back') out.push(`${levelText(r)} (the later run's settings today)`);
  for (const u of r.unresolved ?? []) out.push(`not narrowed (${u.why}): ${names(u.settings, r)}`);
  if (r.settings.length > 0 && r.reason !== 'ab-fail') out.push(`settings the arms carried: ${r.settings.map(settingText).join('; ')}`);
  if (r.fixed.length > 0 && r.reason !== 'fixed-only' && r.reason !== 'ab-within-fixed' && r.reason !== 'secrets')
    out.push(`could not be arms: ${r.fixed.map((f) => `${f.key} ${f.before} → ${f.after} (${FIXED_WORDS[f.why]})`).join('; ')}`);
  if (r.environment.length > 0) out.push(`where the runs ran: ${r.environment.map((e) => `${e.key} ${e.before} → ${e.after}`).join('; ')}`);
  return out;
}

/** The record as stored: the draft with its words. */
export function wordConfirmation(r: Draft): ConfirmationRecord {
  return { ...r, line: verdictLine(r), details: confirmationDetails(r) };
}
