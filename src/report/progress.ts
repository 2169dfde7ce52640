// The live line during a repetition: elapsed/total, phase (warm-up or measuring), request rate
// over the last poll interval.
import type { K6Progress } from '../load/types.ts';

export function progressFormatter(label: string, warmupS: number): (p: K6Progress) => string {
  let last: { at: number; count: number } | undefined;
  return (p) => {
    const phase = p.elapsedS < warmupS ? 'warm-up' : 'measuring';
    let rate = '';
    if (p.requests !== undefined) {
      if (last && p.elapsedS > last.at && p.requests >= last.count)
        rate = ` · ${((p.requests - last.count) / (p.elapsedS - last.at)).toFixed(0)} rps`;
      last = { at: p.elapsedS, count: p.requests };
    }
    return `${label} · ${phase} · ${Math.min(p.elapsedS, p.totalS).toFixed(0)}/${p.totalS.toFixed(0)}s${rate}`;
  };
}
