// Plain k6 against a mode's echo Service on the real node: the same k6 binary, in the product's own
// client pod of that mode (so through the same proxies, from the same place), with a minimal
// constant-arrival-rate script instead of the product's. Started through the API server's exec,
// as the product starts its own; k6's end-of-test summary is read back.
import { componentPath } from '../../test/support/real/components.ts';
import { paths } from '../../test/support/real/layout.ts';
import type { NodeContext } from '../../test/support/real/node.ts';

/**
 * Five seconds of warm-up, then the measured scenario on the same connections' process; the
 * thresholds only make k6 keep the measured scenario's figures apart in its summary.
 */
export const PLAIN_K6 = `import http from 'k6/http';
const arrival = (duration, startTime) => ({ executor: 'constant-arrival-rate', rate: Number(__ENV.RATE),
  timeUnit: '1s', duration, startTime, preAllocatedVUs: 50, maxVUs: 200 });
export const options = { discardResponseBodies: true,
  scenarios: { warmup: arrival('5s', '0s'), m: arrival(__ENV.DURATION, '5s') },
  thresholds: { 'http_req_duration{scenario:m}': ['max>=0'], 'http_reqs{scenario:m}': ['count>=0'],
    'http_req_failed{scenario:m}': ['rate>=0'], 'dropped_iterations{scenario:m}': ['count>=0'] } };
export default function () { http.get(__ENV.URL); }
`;

export interface PlainRound {
  mode: string;
  rate: number;
  startedAt: string;
  requests: number;
  failed: number;
  dropped: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** One plain k6 run (5 s of warm-up, then the measured window) from the mode's client pod; the window's figures. */
export async function plainRound(node: NodeContext, mode: string, namespace: string, rate: number, durationS: number): Promise<PlainRound> {
  const url = `http://echo.${namespace}.svc.cluster.local:8080/`;
  const script = Buffer.from(PLAIN_K6).toString('base64');
  const command = [
    `echo ${script} | base64 -d > /tmp/plain.js`,
    `k6 run --quiet --no-color --summary-trend-stats='p(50),p(90),p(99),max' --summary-export=/tmp/plain.json -e RATE=${rate} -e DURATION=${durationS}s -e URL=${url} /tmp/plain.js >/tmp/plain.log 2>&1`,
    'cat /tmp/plain.json',
  ].join(' && ');
  const startedAt = new Date().toISOString();
  const out = await node.exec(
    componentPath('kubectl'),
    ['--kubeconfig', paths.kubeconfig(), '-n', namespace, 'exec', 'mesh-perf-client', '-c', 'k6', '--', 'sh', '-c', command],
    { namespaces: ['net'], timeoutMs: (durationS + 120) * 1000 },
  );
  if (out.code !== 0)
    throw new Error(`plain k6 in ${namespace}/mesh-perf-client: exit ${out.code}: ${(out.stderr || out.stdout).slice(-1000)}`);
  const metrics = (JSON.parse(out.stdout) as { metrics: Record<string, Record<string, number>> }).metrics;
  const measured = (name: string) => metrics[`${name}{scenario:m}`] ?? {};
  const duration = measured('http_req_duration');
  return {
    mode,
    rate,
    startedAt,
    requests: measured('http_reqs').count ?? 0,
    failed: measured('http_req_failed').passes ?? 0,
    dropped: measured('dropped_iterations').count ?? 0,
    p50: duration['p(50)']!,
    p90: duration['p(90)']!,
    p99: duration['p(99)']!,
    max: duration.max!,
  };
}
