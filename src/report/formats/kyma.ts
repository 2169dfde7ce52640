// Source benchmark 000: Kyma's two markdown tables. The first gives, per deployment type, successful and
// failed calls, data received and sent with transfer speed, averaged over the repetitions (Kyma
// averages two runs). The second gives median and 95th percentile per date, one row per run.
// Differences, stated in docs/presets.md: Kyma labels k6's data_received/data_sent as "received
// by server"/"sent by server" although k6 measures them at the client, so the columns say what
// they are. The second table is Kyma's: k6's iteration_duration per run; a third gives the
// request durations (http_req_duration), which Kyma's thresholds gate on. Runs recorded before
// iteration durations were kept show request durations in the second table, labelled so.
import { mean, modeNames, profileNames, findMode, validRepetitions, invalidCount } from './aggregate.ts';
import { medianOf, type ModeView, type RunView } from '../view.ts';

const MB = 1_000_000; // k6 reports data in SI units

export function renderKymaTables(runs: readonly RunView[]): string {
  if (runs.length === 0) return '';
  const latest = runs[runs.length - 1]!;
  const modes = orderedModes(latest);
  const out: string[] = [];
  out.push(
    `| Type | No. of successful calls | No. of failed calls | Data received \\[MB\\] | Transfer speed (receiving) \\[MB/s\\] | Data sent \\[MB\\] | Transfer speed (sending) \\[MB/s\\] |`,
    '|---|---|---|---|---|---|---|',
  );
  for (const mode of modes) out.push(callsRow(latest, mode));
  const iterations = hasIterations(latest);
  if (iterations) out.push('', ...durationTable(runs, modes, 'iteration'));
  out.push('', ...durationTable(runs, modes, 'request'));
  const repetitions = repetitionsPerProfile(latest);
  const invalid = invalidCount(latest);
  out.push(
    '',
    `Calls and data: one run of each load profile (${profileNames(latest).join(', ')}), averaged over ${repetitions} repetition${repetitions === 1 ? '' : 's'}; data measured by k6 at the client. Durations: median over repetitions of each repetition's percentile${iterations ? '; an iteration is one call of its profile' : ''}.${invalid > 0 ? ` ${invalid} invalid repetition${invalid === 1 ? '' : 's'} left out.` : ''}`,
  );
  return `${out.join('\n')}\n`;
}

/** Kyma lists the meshed deployment first and the one without sidecar last. */
function orderedModes(run: RunView): string[] {
  const names = modeNames(run);
  return [...names.filter((n) => n !== run.baseline), ...names.filter((n) => n === run.baseline)];
}

/** "sidecar" → "Sidecar", "no-sidecar" → "No-sidecar", as in Kyma's tables. */
function label(mode: string): string {
  return mode.charAt(0).toUpperCase() + mode.slice(1);
}

function callsRow(run: RunView, mode: string): string {
  const perProfile = profileNames(run)
    .map((p) => findMode(run, mode, p))
    .filter((m): m is ModeView => m !== undefined)
    .map((m) => validRepetitions(m));
  if (perProfile.length === 0 || perProfile.some((reps) => reps.length === 0)) {
    return `| ${label(mode)} | invalid | invalid | invalid | invalid | invalid | invalid |`;
  }
  // Sum over profiles of the mean over repetitions: "one run of each profile".
  const total = (pick: (r: (typeof perProfile)[number][number]) => number) =>
    perProfile.reduce((sum, reps) => sum + mean(reps.map(pick))!, 0);
  const ok = total((r) => r.requests - r.failures);
  const failed = total((r) => r.failures);
  const received = total((r) => r.bytesReceived);
  const sent = total((r) => r.bytesSent);
  const seconds = total((r) => r.durationS);
  const cells = [
    Math.round(ok),
    Math.round(failed),
    (received / MB).toFixed(2),
    (received / MB / seconds).toFixed(2),
    (sent / MB).toFixed(2),
    (sent / MB / seconds).toFixed(2),
  ];
  return `| ${label(mode)} | ${cells.join(' | ')} |`;
}

type Duration = 'iteration' | 'request';

/** Iteration durations are shown when every valid repetition of the run recorded them. */
function hasIterations(run: RunView): boolean {
  const reps = run.modes.flatMap((m) => validRepetitions(m));
  return reps.length > 0 && reps.every((r) => r.iterationMs !== undefined);
}

/** One row per run: median and p95 of each mode, meshed deployment first (Kyma's layout). */
function durationTable(runs: readonly RunView[], modes: readonly string[], kind: Duration): string[] {
  const cols = [
    ...modes.map((m) => `${label(m)} - Median ${kind} duration [ms]`),
    ...modes.map((m) => `${label(m)} - 95th percentile [ms]`),
  ];
  const rows = [`| Date | ${cols.join(' | ')} |`, `|---|${cols.map(() => '---').join('|')}|`];
  for (const run of runs) {
    const cells = [...modes.map((m) => ms(durationStat(run, m, 'p50', kind))), ...modes.map((m) => ms(durationStat(run, m, 'p95', kind)))];
    rows.push(`| ${run.run.startedAt.slice(0, 10)} | ${cells.join(' | ')} |`);
  }
  return rows;
}

function durationStat(run: RunView, mode: string, stat: 'p50' | 'p95', kind: Duration): number | undefined {
  const values = run.modes
    .filter((m) => m.mode === mode)
    .flatMap((m) => validRepetitions(m).map((r) => (kind === 'iteration' ? r.iterationMs?.[stat] : r.latencyMs?.[stat])))
    .filter((v): v is number => v !== undefined);
  return medianOf(values);
}

function ms(value: number | undefined): string {
  return value === undefined ? 'invalid' : value.toFixed(2);
}

function repetitionsPerProfile(run: RunView): number {
  return Math.max(0, ...run.modes.map((m) => m.records.length));
}
