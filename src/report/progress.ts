// The live line during a repetition: the phase (warm-up or measuring) with the seconds of that
// phase, and the request rate over the last poll interval. Warm-up is not measuring: its seconds
// are counted as warm-up ("warm-up · 1/1s", then "measuring · 3/5s"), never as the measured time.
import type { K6Progress } from '../load/types.ts';

export function progressFormatter(label: string, warmupS: number): (p: K6Progress) => string {
  let last: { at: number; count: number } | undefined;
  return (p) => {
    const elapsed = Math.min(p.elapsedS, p.totalS);
    const warming = warmupS > 0 && elapsed <= warmupS;
    const phase = warming
      ? `warm-up · ${elapsed.toFixed(0)}/${warmupS.toFixed(0)}s`
      : `measuring · ${(elapsed - warmupS).toFixed(0)}/${Math.max(0, p.totalS - warmupS).toFixed(0)}s`;
    let rate = '';
    if (p.requests !== undefined) {
      if (last && p.elapsedS > last.at && p.requests >= last.count)
        rate = ` · ${((p.requests - last.count) / (p.elapsedS - last.at)).toFixed(0)} rps`;
      last = { at: p.elapsedS, count: p.requests };
    }
    return `${label} · ${phase}${rate}`;
  };
}
