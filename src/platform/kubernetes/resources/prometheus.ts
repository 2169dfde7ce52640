// Parser for the Prometheus text exposition format as the kubelet's /metrics/resource serves it:
// `name{label="value",...} value [timestamp_ms]`, with # HELP / # TYPE comments. Pure.
export interface PromSample {
  name: string;
  labels: Record<string, string>;
  value: number;
  timestampMs?: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+(-?\d+))?\s*$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?\s*/g;

export function parsePrometheusText(text: string): PromSample[] {
  const samples: PromSample[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const match = LINE.exec(line);
    if (!match) continue;
    const value = parseValue(match[3]!);
    if (value === undefined) continue;
    const labels: Record<string, string> = {};
    for (const label of (match[2] ?? '').matchAll(LABEL)) labels[label[1]!] = unescapeLabel(label[2]!);
    samples.push({ name: match[1]!, labels, value, ...(match[4] ? { timestampMs: Number(match[4]) } : {}) });
  }
  return samples;
}

function parseValue(text: string): number | undefined {
  if (text === 'NaN') return undefined;
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  const value = Number(text);
  return Number.isNaN(value) ? undefined : value;
}

function unescapeLabel(text: string): string {
  return text.replace(/\\(["\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c));
}
