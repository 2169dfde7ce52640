// Issue 53's trial in stock k6: how close to vegeta's tail can a k6 script get without an
// extension? The variants, each run like plain k6 (tools.ts k6Script) beside vegeta and plain k6
// in the same rounds (run.ts, section `instrument`):
//   - plain k6 with `noCookiesReset` (k6 otherwise builds a cookie jar for every iteration);
//   - plain k6 under other garbage-collector settings (GOGC, GOMEMLIMIT): a collection's mark
//     phase runs beside the VUs and its assists slow the goroutines that allocate;
//   - one VU that paces absolute send times itself: timers (k6's event loop) fire at the
//     intended send time of the next arrival, every arrival due by then is sent with
//     `http.asyncRequest`, not awaited (k6 runs each in a goroutine of its own and resolves its
//     promise on the VU's event loop), so no JS iteration, VU hand-off or cookie jar per
//     request; the iteration ends when the last response has come back. Sends later than 1 ms
//     behind their intended time are counted (late_sends) and the largest lag kept
//     (send_lag_max): that lag is not in http_req_duration, which starts at the send.
import type { K6Script } from './tools.ts';

export const NO_COOKIES_RESET = `import http from 'k6/http';
export const options = { discardResponseBodies: true, noCookiesReset: true, scenarios: { s: {
  executor: 'constant-arrival-rate', rate: Number(__ENV.RATE), timeUnit: '1s',
  duration: __ENV.DURATION, preAllocatedVUs: 200 } } };
export default function () { http.get(__ENV.URL); }
`;

export const ONE_VU_PACER = `import http from 'k6/http';
import exec from 'k6/execution';
import { Counter, Gauge } from 'k6/metrics';

const late = new Counter('late_sends');
const lagMax = new Gauge('send_lag_max');
const RATE = Number(__ENV.RATE);
const DURATION_MS = Number(__ENV.DURATION_S) * 1000;
const URL = __ENV.URL;
export const options = {
  discardResponseBodies: true,
  noCookiesReset: true,
  // The VU's transport keeps batchPerHost idle connections (6 by default): as many as plain k6's VUs.
  batch: 200,
  batchPerHost: 200,
  scenarios: { s: { executor: 'per-vu-iterations', vus: 1, iterations: 1, maxDuration: \`\${DURATION_MS / 1000 + 30}s\` } },
};

export default function () {
  const instance = exec.instance; // currentTestRunDuration: ms with µs resolution (Date.now() has ms)
  const interval = 1000 / RATE;
  const total = Math.round((RATE * DURATION_MS) / 1000);
  const start = instance.currentTestRunDuration;
  let sent = 0;
  let worst = 0;
  const tick = () => {
    const now = instance.currentTestRunDuration - start;
    while (sent < total && sent * interval <= now) {
      const lag = now - sent * interval;
      if (lag > 1) late.add(1);
      if (lag > worst) lagMax.add((worst = lag));
      http.asyncRequest('GET', URL);
      sent++;
    }
    if (sent < total) setTimeout(tick, sent * interval - (instance.currentTestRunDuration - start));
  };
  tick();
}
`;

/** GC settings tried beside Go's default (GOGC=100): a lazier collector, and one that collects only near a memory limit. */
const GC = {
  lazier: { GOGC: '400' },
  limitOnly: { GOGC: 'off', GOMEMLIMIT: '1GiB' },
};

export const STOCK_TRIAL: { label: string; variant: K6Script }[] = [
  { label: 'k6 +noCookiesReset', variant: { script: NO_COOKIES_RESET } },
  { label: 'k6 +noCookiesReset +GOGC=400', variant: { script: NO_COOKIES_RESET, env: GC.lazier } },
  { label: 'k6 +noCookiesReset +GOGC=off,GOMEMLIMIT=1GiB', variant: { script: NO_COOKIES_RESET, env: GC.limitOnly } },
  { label: 'k6 1-VU pacer', variant: { script: ONE_VU_PACER } },
  { label: 'k6 1-VU pacer +GOGC=off,GOMEMLIMIT=1GiB', variant: { script: ONE_VU_PACER, env: GC.limitOnly } },
];
