// Go's time.Duration text ("588.001µs", "1.036ms", "5m0s") and vegeta's rounding of it, so the
// vegeta-style block prints durations exactly as `vegeta report` does.
const NS = { h: 3_600_000_000_000, m: 60_000_000_000, s: 1_000_000_000, ms: 1_000_000, us: 1_000, ns: 1 } as const;
const VEGETA_UNITS = [NS.h, NS.m, NS.s, NS.ms, NS.us, NS.ns];

/** Go's Duration.Round: to a multiple of `unit`, halves away from zero. */
export function roundDuration(ns: number, unit: number): number {
  if (unit <= 0) return ns;
  const sign = ns < 0 ? -1 : 1;
  const abs = Math.abs(ns);
  const rest = abs % unit;
  return sign * (rest + rest < unit ? abs - rest : abs + unit - rest);
}

/** vegeta's report rounding: keep the unit below the value's largest unit (1.0362ms → 1.036ms). */
export function vegetaRound(ns: number): number {
  for (let i = 0; i < VEGETA_UNITS.length - 1; i++) {
    if (ns >= VEGETA_UNITS[i]!) return roundDuration(ns, VEGETA_UNITS[i + 1]!);
  }
  return ns;
}

/** Go's Duration.String for a whole number of nanoseconds. */
export function goDuration(totalNs: number): string {
  const ns = Math.round(totalNs);
  if (ns === 0) return '0s';
  const sign = ns < 0 ? '-' : '';
  const abs = Math.abs(ns);
  if (abs < NS.s) {
    if (abs < NS.us) return `${sign}${abs}ns`;
    if (abs < NS.ms) return `${sign}${fraction(abs, 3)}µs`;
    return `${sign}${fraction(abs, 6)}ms`;
  }
  const seconds = `${fraction(abs % NS.m, 9)}s`;
  const minutes = Math.floor(abs / NS.m);
  if (minutes === 0) return `${sign}${seconds}`;
  const hours = Math.floor(minutes / 60);
  if (hours === 0) return `${sign}${minutes}m${seconds}`;
  return `${sign}${hours}h${minutes % 60}m${seconds}`;
}

/** value / 10^digits with the fraction's trailing zeros dropped, as Go's fmtFrac does. */
function fraction(value: number, digits: number): string {
  const scale = 10 ** digits;
  const whole = Math.floor(value / scale);
  const frac = String(value % scale)
    .padStart(digits, '0')
    .replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}

/** Milliseconds (k6's unit) as vegeta prints a latency. */
export function vegetaLatency(ms: number): string {
  return goDuration(vegetaRound(Math.round(ms * 1e6)));
}
