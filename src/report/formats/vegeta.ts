// Source benchmark 004's per-scenario text: vegeta's `report` block, filled from one repetition. Same labels,
// same tabwriter alignment (cells padded to the widest plus two spaces), same number and duration
// formats. Two differences, both stated in docs/presets.md: the "Duration [total, attack, wait]"
// line is left out (k6 does not report vegeta's wait), and bytes are k6's wire bytes, headers
// included, where vegeta counts bodies only.
import type { Repetition } from '../../results/types.ts';
import { alignColumns } from './aggregate.ts';
import { vegetaLatency } from './go-duration.ts';

export function renderVegetaBlock(rep: Repetition): string {
  const requests = rep.requests;
  const successes = requests - rep.failures;
  const perRequest = (total: number) => (requests > 0 ? total / requests : 0);
  const l = rep.latencyMs;
  const codes = Object.keys(rep.statusCounts).sort();
  const rows = [
    ['Requests', '[total, rate, throughput]', `${requests}, ${fixed2(requests / rep.durationS)}, ${fixed2(successes / rep.durationS)}`],
    [
      'Latencies',
      '[min, mean, 50, 90, 95, 99, max]',
      l ? [l.min, l.mean, l.p50, l.p90, l.p95, l.p99, l.max].map(vegetaLatency).join(', ') : '—',
    ],
    ['Bytes In', '[total, mean]', `${rep.bytesReceived}, ${fixed2(perRequest(rep.bytesReceived))}`],
    ['Bytes Out', '[total, mean]', `${rep.bytesSent}, ${fixed2(perRequest(rep.bytesSent))}`],
    ['Success', '[ratio]', `${fixed2(requests > 0 ? (successes / requests) * 100 : 0)}%`],
    ['Status Codes', '[code:count]', codes.map((code) => `${code}:${rep.statusCounts[code]}`).join('  ')],
  ];
  const lines = alignColumns(rows, 2);
  lines.push('Error Set:');
  // vegeta lists each distinct error; for HTTP errors that is "<code> <reason>".
  for (const code of codes)
    if (!isSuccess(code)) lines.push(`${code} ${REASONS[code] ?? (code === '0' ? 'no response (connection error or timeout)' : 'error')}`);
  return `${lines.map((line) => line.trimEnd()).join('\n')}\n`;
}

function isSuccess(code: string): boolean {
  const n = Number(code);
  return n >= 200 && n < 400;
}

function fixed2(value: number): string {
  return Number.isFinite(value) ? value.toFixed(2) : '0.00';
}

const REASONS: Record<string, string> = {
  '400': 'Bad Request',
  '401': 'Unauthorized',
  '403': 'Forbidden',
  '404': 'Not Found',
  '408': 'Request Timeout',
  '429': 'Too Many Requests',
  '500': 'Internal Server Error',
  '502': 'Bad Gateway',
  '503': 'Service Unavailable',
  '504': 'Gateway Timeout',
};
