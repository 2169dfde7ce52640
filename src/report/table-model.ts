// The numbers behind the terminal table and summary.md: per load profile and mode, medians over
// valid repetitions and the overhead of each mode against the baseline mode. Pure.
import type { ModeResult, RunResult } from '../results/types.ts';
import { formatCauses, formatErrorRate, sumCauses } from '../results/errors.ts';

export interface TableRow {
  profile: string;
  mode: string;
  isBaseline: boolean;
  validReps: number;
  totalReps: number;
  p50?: number;
  p90?: number;
  p99?: number;
  max?: number;
  achievedRps?: number;
  targetRps: number | null;
  errorRate?: number;
  failures: number;
  /** Why requests failed, largest first. */
  errorCauses: [string, number][];
  /** p50 of this mode minus p50 of the baseline, ms; and as a percentage of the baseline. */
  overheadMs?: number;
  overheadPct?: number;
}

export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function modeRow(mode: ModeResult, isBaseline: boolean): TableRow {
  const valid = mode.repetitions.filter((r) => r.valid);
  const pick = (f: (r: (typeof valid)[number]) => number | undefined) => median(valid.flatMap((r) => f(r) ?? []));
  const requests = mode.repetitions.reduce((n, r) => n + r.requests, 0);
  const failures = mode.repetitions.reduce((n, r) => n + r.failures, 0);
  return {
    profile: mode.profile,
    mode: mode.name,
    isBaseline,
    validReps: valid.length,
    totalReps: mode.repetitions.length,
    // Latency of successful requests; "—" when none succeeded.
    p50: pick((r) => r.latencyMs?.p50),
    p90: pick((r) => r.latencyMs?.p90),
    p99: pick((r) => r.latencyMs?.p99),
    max: pick((r) => r.latencyMs?.max),
    achievedRps: pick((r) => r.achievedRps),
    targetRps: mode.repetitions[0]?.targetRps ?? null,
    // Failed requests over every repetition, valid or not (as the error gate counts them).
    ...(requests > 0 ? { errorRate: failures / requests } : {}),
    failures,
    errorCauses: sumCauses(mode.repetitions),
  };
}

export function tableRows(result: RunResult): TableRow[] {
  const rows = result.modes.map((mode) => modeRow(mode, mode.name === result.baseline));
  for (const row of rows) {
    const base = rows.find((r) => r.profile === row.profile && r.isBaseline);
    if (!base || row.isBaseline || base.p50 === undefined || row.p50 === undefined) continue;
    row.overheadMs = row.p50 - base.p50;
    row.overheadPct = base.p50 > 0 ? (row.overheadMs / base.p50) * 100 : undefined;
  }
  return rows;
}

export function formatMs(value: number | undefined): string {
  if (value === undefined) return '—';
  if (value >= 100) return `${value.toFixed(0)} ms`;
  if (value >= 10) return `${value.toFixed(1)} ms`;
  return `${value.toFixed(3)} ms`;
}

export function formatSignedMs(value: number | undefined): string {
  if (value === undefined) return '—';
  return `${value >= 0 ? '+' : '−'}${formatMs(Math.abs(value))}`;
}

export function formatPct(value: number | undefined, signed = false): string {
  if (value === undefined) return '—';
  const sign = signed ? (value >= 0 ? '+' : '−') : '';
  return `${sign}${Math.abs(value).toFixed(1)}%`;
}

export function formatRps(row: TableRow): string {
  if (row.achievedRps === undefined) return '—';
  const achieved = row.achievedRps >= 100 ? row.achievedRps.toFixed(0) : row.achievedRps.toFixed(1);
  return row.targetRps === null ? achieved : `${achieved}/${row.targetRps}`;
}

export function invalidNotes(result: RunResult): string[] {
  const notes: string[] = [];
  for (const mode of result.modes) {
    mode.repetitions.forEach((rep, i) => {
      if (!rep.valid) notes.push(`${mode.name} (${mode.profile}) repetition ${i + 1}: ${rep.invalidReasons.join('; ')}`);
    });
  }
  return notes;
}

/** The errors cell: "0%", or the rate of failed requests (red where colour is shown). */
export function formatErrors(row: TableRow): string {
  return row.errorRate === undefined ? '—' : formatErrorRate(row.errorRate);
}

/** One line per mode with failed requests: "candidate [1000rps]: 30.0% failed: HTTP 503 × 3,000". */
export function errorNotes(rows: readonly TableRow[]): string[] {
  return rows
    .filter((r) => r.failures > 0)
    .map(
      (r) =>
        `${r.mode} [${r.profile}]: ${formatErrors(r)} of requests failed: ${formatCauses(r.errorCauses)}${r.p50 === undefined ? ' (no request succeeded: no latency)' : ' (latency is over successful requests only)'}`,
    );
}
