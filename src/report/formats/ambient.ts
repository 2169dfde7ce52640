// Source benchmark 003: the ambient performance script's output. A CSV with a few header lines, then rows
// p50/p90/p99/Max and one column per mode (milliseconds, awk's default %.6g), every line ending
// in a comma as the script prints it; and conv_results.sh's plain-text table of the same cells.
import { findMode, invalidCount, modeNames, profileNames, recordedProfile, validRepetitions } from './aggregate.ts';
import { findRow, type RunView } from '../view.ts';

/** The script's column titles for the modes it ran (PEPs were later renamed waypoints). */
export const AMBIENT_LABELS: Record<string, string> = {
  baseline: 'No Mesh',
  'istio-sidecar': 'With Istio Sidecars',
  linkerd: 'Linkerd',
  'istio-ambient': 'Ambient (only uProxies)',
  'istio-waypoint': 'Ambient (uProxies + PEPs)',
};

const ROWS = [
  { label: 'p50', pick: 'p50' },
  { label: 'p90', pick: 'p90' },
  { label: 'p99', pick: 'p99' },
  { label: 'Max', pick: 'max' },
] as const;

interface AmbientBlock {
  profile: string;
  labels: string[];
  /** cells[row][column], already formatted. */
  cells: string[][];
}

function blocks(view: RunView): AmbientBlock[] {
  const modes = modeNames(view);
  return profileNames(view).map((profile) => ({
    profile,
    labels: modes.map((m) => AMBIENT_LABELS[m] ?? m),
    cells: ROWS.map((row) =>
      modes.map((name) => {
        const mode = findMode(view, name, profile);
        // The script wrote "Skipped" for a mode it did not run; we do the same.
        if (!mode) return 'Skipped';
        const figure = findRow(view, name, profile)!;
        const values = validRepetitions(mode).flatMap((r) => (r.latencyMs ? [r.latencyMs[row.pick]] : []));
        if (values.length === 0 || figure.fromInvalid) return 'invalid';
        // Percentiles: the run's median (as every output); Max: the largest maximum, as the script's.
        return formatG(row.pick === 'max' ? Math.max(...values) : figure.latency[row.pick]!.value);
      }),
    ),
  }));
}

export function renderAmbientCsv(view: RunView): string {
  const out: string[] = [];
  for (const block of blocks(view)) {
    if (out.length > 0) out.push('');
    out.push(`Run time: ${unixDate(view.run.startedAt)}`);
    out.push(`Load parameters: ${loadParameters(view, block.profile)}`);
    const portName = servicePortName(view);
    if (portName) out.push(`Service port name: ${portName}`);
    out.push('');
    out.push(`,${block.labels.map((l) => `${l},`).join('')}`);
    ROWS.forEach((row, i) => out.push(`${row.label},${block.cells[i]!.map((c) => `${c},`).join('')}`));
  }
  const invalid = invalidCount(view);
  if (invalid > 0) out.push('', `# ${invalid} invalid repetition${invalid === 1 ? '' : 's'} left out (see results.json)`);
  return `${out.join('\n')}\n`;
}

/** conv_results.sh: `| Perc.  | No Mesh  | ... |`, each column as wide as its widest cell. */
export function renderAmbientTable(view: RunView): string {
  const out: string[] = [];
  const several = profileNames(view).length > 1;
  for (const block of blocks(view)) {
    if (out.length > 0) out.push('');
    if (several) out.push(`${block.profile}:`);
    const rows = [['Perc.', ...block.labels], ...ROWS.map((row, i) => [row.label, ...block.cells[i]!])];
    // The script pads the percentile column to 6 ("%-6s").
    const widths = rows[0]!.map((_, c) => Math.max(c === 0 ? 6 : 0, ...rows.map((r) => r[c]!.length)));
    for (const row of rows) out.push(`| ${row.map((cell, c) => cell.padEnd(widths[c]!)).join(' | ')} |`);
  }
  return `${out.join('\n')}\n`;
}

function loadParameters(view: RunView, profileName: string): string {
  const p = recordedProfile(view, profileName);
  if (!p) return `profile ${profileName}`;
  const load =
    p.model === 'closed' ? `closed model (k6 constant-vus) --vus ${p.vus}` : `open model (k6 constant-arrival-rate) --rps ${p.rate}`;
  const parts = [load, `--duration ${p.duration}`];
  if (p.warmup) parts.push(`--warmup ${p.warmup}`);
  if (p.repetitions !== undefined) parts.push(`--repetitions ${p.repetitions}`);
  return parts.join(' ');
}

function servicePortName(view: RunView): string | undefined {
  const k8s = (view.config as { kubernetes?: Record<string, unknown> }).kubernetes;
  const name = k8s?.servicePortName;
  return typeof name === 'string' ? name : undefined;
}

/** awk's default number output (%.6g), which the script used to turn seconds into ms. */
export function formatG(value: number): string {
  if (value === 0) return '0';
  if (!Number.isFinite(value)) return String(value);
  // awk prints integral values as integers, whatever their size.
  if (Number.isInteger(value) && Math.abs(value) < 1e16) return String(value);
  const exponent = Math.floor(Math.log10(Math.abs(Number(value.toPrecision(6)))));
  if (exponent < -4 || exponent >= 6) {
    const [mantissa, exp] = value.toExponential(5).split('e');
    const trimmed = mantissa!.includes('.') ? mantissa!.replace(/0+$/, '').replace(/\.$/, '') : mantissa!;
    const e = Number(exp);
    return `${trimmed}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  const fixed = value.toFixed(Math.max(0, 5 - exponent));
  return fixed.includes('.') ? fixed.replace(/0+$/, '').replace(/\.$/, '') : fixed;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `date`'s default format, in UTC: "Mon Jul 11 07:35:26 UTC 2022". */
export function unixDate(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const two = (n: number) => String(n).padStart(2, '0');
  const day = String(d.getUTCDate()).padStart(2, ' ');
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${day} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} UTC ${d.getUTCFullYear()}`;
}
