// Resource sampling arithmetic: Prometheus text parsing, grouping containers into the parts of
// the system, and per-repetition min/max/avg and per-1000-rps figures from cumulative counters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePrometheusText } from '../../../src/platform/kubernetes/resources/prometheus.ts';
import { groupOf } from '../../../src/platform/kubernetes/resources/groups.ts';
import { aggregateScrapes, containerSamples, type Scrape } from '../../../src/platform/kubernetes/resources/aggregate.ts';
import { minimumCpuWindowMs } from '../../../src/plan/kubelet-refresh.ts';
import { measuredWindow } from '../../../src/load/window.ts';

test('parses kubelet /metrics/resource text: labels, escapes, timestamps, comments', () => {
  const text = [
    '# HELP container_cpu_usage_seconds_total [STABLE] Cumulative cpu time consumed by the container in core-seconds',
    '# TYPE container_cpu_usage_seconds_total counter',
    'container_cpu_usage_seconds_total{container="echo",namespace="ns",pod="echo-1"} 12.5 1700000000123',
    'container_memory_working_set_bytes{container="echo",namespace="ns",pod="echo-1"} 2.097152e+07 1700000000456',
    'scrape_error 0',
    'weird{a="x\\"y",b="c\\\\d"} NaN',
    'node_cpu_usage_seconds_total 100.25',
  ].join('\n');
  const samples = parsePrometheusText(text);
  assert.deepEqual(samples[0], {
    name: 'container_cpu_usage_seconds_total',
    labels: { container: 'echo', namespace: 'ns', pod: 'echo-1' },
    value: 12.5,
    timestampMs: 1700000000123,
  });
  assert.equal(samples[1]!.value, 20971520);
  assert.deepEqual(samples[2], { name: 'scrape_error', labels: {}, value: 0 });
  assert.equal(samples.length, 4, 'NaN sample dropped');
  assert.deepEqual(containerSamples(samples), [
    { namespace: 'ns', pod: 'echo-1', container: 'echo', cpuSeconds: 12.5, timestampMs: 1700000000123, memoryBytes: 20971520 },
  ]);
});

test('containers are grouped by namespace, pod and container', () => {
  const context = { modeNamespaces: new Set(['mp-sidecar']), meshNamespaces: new Set(['istio-system', 'linkerd']) };
  const cases: [Parameters<typeof groupOf>[0], string | undefined][] = [
    [{ namespace: 'mp-sidecar', pod: 'echo-5d9-abc', container: 'echo' }, 'app'],
    [{ namespace: 'mp-sidecar', pod: 'echo-5d9-abc', container: 'istio-proxy' }, 'sidecar'],
    [{ namespace: 'mp-sidecar', pod: 'echo-5d9-abc', container: 'linkerd-proxy' }, 'sidecar'],
    [{ namespace: 'mp-sidecar', pod: 'mesh-perf-client', container: 'k6' }, 'client'],
    [{ namespace: 'mp-sidecar', pod: 'mesh-perf-client', container: 'istio-proxy' }, 'sidecar'],
    [{ namespace: 'mp-sidecar', pod: 'x', container: 'k6', podLabels: { 'app.kubernetes.io/name': 'mesh-perf-client' } }, 'client'],
    [{ namespace: 'mp-sidecar', pod: 'waypoint-7c8-xyz', container: 'istio-proxy' }, 'waypoint'],
    [
      { namespace: 'mp-sidecar', pod: 'wp', container: 'istio-proxy', podLabels: { 'gateway.networking.k8s.io/gateway-name': 'waypoint' } },
      'waypoint',
    ],
    [{ namespace: 'istio-system', pod: 'ztunnel-abcde', container: 'istio-proxy' }, 'ztunnel'],
    [{ namespace: 'istio-system', pod: 'istio-cni-node-x', container: 'install-cni' }, 'cni'],
    [{ namespace: 'istio-system', pod: 'istiod-6f-x', container: 'discovery' }, 'control-plane'],
    [{ namespace: 'linkerd', pod: 'linkerd-destination-1', container: 'linkerd-proxy' }, 'control-plane'],
    [{ namespace: 'kube-system', pod: 'coredns-1', container: 'coredns' }, undefined],
    [{ namespace: 'mp-other', pod: 'echo-1', container: 'echo' }, undefined],
  ];
  for (const [id, expected] of cases) assert.equal(groupOf(id, context), expected, JSON.stringify(id));
});

test('CPU from counter deltas, memory from working sets, summed per group per instant', () => {
  // Two app containers: 10m and 30m steady; one sidecar going 5m then 15m. Scrapes every 2 s.
  const rates = { a: [10, 10, 10], b: [30, 30, 30], s: [5, 15, 15] };
  const mem = { a: [10, 12, 14], b: [20, 20, 20], s: [40, 44, 48] };
  const scrapes: Scrape[] = [];
  const cumulative = { a: 0, b: 0, s: 0 };
  for (let i = 0; i < 4; i++) {
    if (i > 0) for (const k of ['a', 'b', 's'] as const) cumulative[k] += (rates[k][i - 1]! / 1000) * 2;
    const m = (k: 'a' | 'b' | 's') => mem[k][Math.min(i, 2)]! * 1024 * 1024;
    scrapes.push({
      atMs: 1000 + i * 2000,
      containers: [
        { namespace: 'ns', pod: 'echo-1', container: 'echo', cpuSeconds: cumulative.a, memoryBytes: m('a') },
        { namespace: 'ns', pod: 'echo-2', container: 'echo', cpuSeconds: cumulative.b, memoryBytes: m('b') },
        { namespace: 'ns', pod: 'echo-1', container: 'istio-proxy', cpuSeconds: cumulative.s, memoryBytes: m('s') },
        { namespace: 'kube-system', pod: 'x', container: 'y', cpuSeconds: 5 },
      ],
    });
  }
  const context = { modeNamespaces: new Set(['ns']), meshNamespaces: new Set<string>() };
  const { usage } = aggregateScrapes(
    scrapes,
    (c) => {
      const group = groupOf(c, context);
      return group ? { group, scope: 'sidecar-mode' } : undefined;
    },
    2000,
  );
  const app = usage.find((u) => u.group === 'app')!;
  const sidecar = usage.find((u) => u.group === 'sidecar')!;
  assert.equal(usage.length, 2);
  assert.deepEqual(app.cpuMillicores, { min: 40, max: 40, avg: 40 });
  assert.deepEqual(sidecar.cpuMillicores, { min: 5, max: 15, avg: Math.round(((5 + 15 + 15) / 3) * 1000) / 1000 });
  assert.deepEqual(app.memoryMiB, { min: 30, max: 34, avg: (30 + 32 + 34 + 34) / 4 });
  assert.equal(app.samples, 4);
  assert.equal(app.cpuPer1000Rps, 40 / 2);
  assert.equal(sidecar.memoryMiBPer1000Rps, Math.round(((40 + 44 + 48 + 48) / 4 / 2) * 1000) / 1000);
  assert.equal(app.scope, 'sidecar-mode');
});

test('kubelet timestamps win over scrape times; counter resets and zero rps are handled', () => {
  const scrapes: Scrape[] = [
    { atMs: 0, containers: [{ namespace: 'ns', pod: 'p', container: 'echo', cpuSeconds: 1, timestampMs: 0 }] },
    // Scraped 5 s later but the kubelet sampled 4 s later: 0.2 core-seconds over 4 s is 50m.
    { atMs: 5000, containers: [{ namespace: 'ns', pod: 'p', container: 'echo', cpuSeconds: 1.2, timestampMs: 4000 }] },
    // Container restarted: the counter went back; that interval is skipped.
    { atMs: 7000, containers: [{ namespace: 'ns', pod: 'p', container: 'echo', cpuSeconds: 0.1, timestampMs: 6000 }] },
  ];
  const { usage } = aggregateScrapes(scrapes, () => ({ group: 'app', scope: 'm' }), 0);
  assert.deepEqual(usage[0]!.cpuMillicores, { min: 50, max: 50, avg: 50 });
  assert.equal(usage[0]!.cpuPer1000Rps, undefined);
  assert.equal(usage[0]!.memoryMiBPer1000Rps, undefined);
});

// One ztunnel per node at 30 MiB and 10m; `missing(node, second)` says which scrapes lack it.
function ztunnelScrapes(seconds: number, missing: (node: string, second: number) => boolean): Scrape[] {
  return Array.from({ length: seconds }, (_, second) => {
    const nodes = ['a', 'b'].filter((node) => !missing(node, second));
    const containers = nodes.map((node) => ({
      namespace: 'istio-system',
      pod: `ztunnel-${node}`,
      container: 'istio-proxy',
      cpuSeconds: second * 0.01,
      memoryBytes: 30 * 1024 * 1024,
    }));
    return { atMs: second * 1000, containers };
  });
}
const ztunnelUsage = (scrapes: Scrape[]) => aggregateScrapes(scrapes, () => ({ group: 'ztunnel', scope: 'istio-system' }), 1000).usage[0]!;

test('a scrape a node missed does not sum the group short: the container is carried over the gap', () => {
  const usage = ztunnelUsage(ztunnelScrapes(5, (node, second) => node === 'b' && second === 2));
  assert.deepEqual(usage.memoryMiB, { min: 60, max: 60, avg: 60 });
  // Node b's CPU after the gap is measured over the two seconds it spans.
  assert.deepEqual(usage.cpuMillicores, { min: 20, max: 20, avg: 20 });
  assert.equal(usage.samples, 5);
});

test('a container that shows up late in the metrics: the instants before it are left out', () => {
  const usage = ztunnelUsage(ztunnelScrapes(6, (node, second) => node === 'b' && second === 0));
  assert.deepEqual(usage.memoryMiB, { min: 60, max: 60, avg: 60 });
  assert.deepEqual(usage.cpuMillicores, { min: 20, max: 20, avg: 20 });
  assert.equal(usage.samples, 5);
});

test('a pod replaced midway never coexists with its successor: every instant counts, as measured', () => {
  const usage = ztunnelUsage(ztunnelScrapes(6, (node, second) => (node === 'a' ? second >= 3 : second < 3)));
  assert.deepEqual(usage.memoryMiB, { min: 30, max: 30, avg: 30 });
  assert.equal(usage.samples, 6);
});

test('a sample the kubelet repeats: CPU is measured from the older one and carried between', () => {
  // The kubelet refreshes CPU every third scrape; 25m steady.
  const scrapes: Scrape[] = Array.from({ length: 7 }, (_, i) => {
    const sampled = Math.floor(i / 3) * 3;
    return {
      atMs: i * 1000,
      containers: [{ namespace: 'ns', pod: 'p', container: 'echo', cpuSeconds: sampled * 0.025, timestampMs: sampled * 1000 }],
    };
  });
  const [usage] = aggregateScrapes(scrapes, () => ({ group: 'app', scope: 'm' }), 0).usage;
  assert.deepEqual(usage!.cpuMillicores, { min: 25, max: 25, avg: 25 });
});

// The measured window: kubelet samples outside it (warm-up, k6 starting and stopping, the final
// scrape) must neither dilute nor inflate the figures.
const app = () => ({ group: 'app' as const, scope: 'm' });
/** Cumulative CPU seconds at `ms` of a container busy at `millicores` between busyFrom and busyTo, idle otherwise. */
const cumulativeAt = (ms: number, millicores: number, busyFrom: number, busyTo: number) =>
  (Math.max(0, Math.min(ms, busyTo) - busyFrom) / 1000) * (millicores / 1000);

test('only samples inside the measured window count: idle time before and after no longer dilutes CPU', () => {
  // Scraped every second for 20 s (no kubelet timestamps: values computed at the scrape, as kwok
  // does); busy at 200m from 5 s to 15 s, the measured window; 40 MiB then, 10 MiB idle.
  const scrapes: Scrape[] = Array.from({ length: 21 }, (_, i) => ({
    atMs: 1_000_000 + i * 1000,
    containers: [
      {
        namespace: 'ns',
        pod: 'p',
        container: 'echo',
        cpuSeconds: cumulativeAt(i * 1000, 200, 5000, 15000),
        memoryBytes: (i >= 5 && i <= 15 ? 40 : 10) * 1024 * 1024,
      },
    ],
  }));
  const window = { startMs: 1_005_000, endMs: 1_015_000 };
  const inside = aggregateScrapes(scrapes, app, 500, window);
  assert.deepEqual(inside.tooFewSamples, []);
  const [usage] = inside.usage;
  assert.deepEqual(usage!.cpuMillicores, { min: 200, max: 200, avg: 200 });
  assert.deepEqual(usage!.memoryMiB, { min: 40, max: 40, avg: 40 });
  assert.equal(usage!.cpuPer1000Rps, 400);
  assert.equal(usage!.samples, 11, 'the scrapes at 5 s .. 15 s');
  // Without the window the same scrapes read half the CPU per 1000 rps: what short runs reported.
  const [diluted] = aggregateScrapes(scrapes, app, 500).usage;
  assert.equal(diluted!.cpuPer1000Rps, 200);
});

test("the kubelet's own sample time decides, not the scrape's: a stale sample scraped inside the window stays out", () => {
  // cAdvisor refreshes every 10 s (at 3, 13, 23, 33, 43 s); scraped every 2 s. Busy at 300m from
  // 10 s to 40 s, the window; idle before. The scrapes at 10 and 12 s still return the 3 s sample,
  // whose interval to the 13 s one is mostly idle (90m): counting it would read low.
  const refreshes = [3000, 13000, 23000, 33000, 43000];
  const scrapes: Scrape[] = Array.from({ length: 25 }, (_, i) => {
    const atMs = i * 2000;
    const sampled = refreshes.filter((t) => t <= atMs).at(-1);
    const containers =
      sampled === undefined
        ? []
        : [
            {
              namespace: 'ns',
              pod: 'p',
              container: 'echo',
              cpuSeconds: cumulativeAt(sampled, 300, 10000, 40000),
              memoryBytes: 20 * 1024 * 1024,
              timestampMs: sampled,
            },
          ];
    return { atMs, containers };
  });
  const { usage, tooFewSamples } = aggregateScrapes(scrapes, app, 1000, { startMs: 10000, endMs: 40000 });
  assert.deepEqual(tooFewSamples, []);
  assert.deepEqual(usage[0]!.cpuMillicores, { min: 300, max: 300, avg: 300 });
  assert.equal(usage[0]!.cpuPer1000Rps, 300);
  assert.equal(usage[0]!.samples, 3, 'the samples taken at 13, 23 and 33 s, each counted once however often scraped');
});

test('a window too short for two kubelet refreshes gives no CPU figure and names the groups left out', () => {
  const scrapes: Scrape[] = Array.from({ length: 12 }, (_, i) => {
    const sampled = i * 2000 >= 13000 ? 13000 : 3000;
    return {
      atMs: i * 2000,
      containers: [{ namespace: 'ns', pod: 'p', container: 'echo', cpuSeconds: sampled / 1000, timestampMs: sampled }],
    };
  });
  const result = aggregateScrapes(scrapes, app, 1000, { startMs: 10000, endMs: 20000 });
  assert.deepEqual(result.usage, []);
  assert.deepEqual(result.tooFewSamples, ['m/app']);
});

test('the measured window from the k6 summary: after warm-up and its handover, for the profile duration', () => {
  const summary = (extra: Record<string, unknown>) =>
    JSON.stringify({
      metrics: {},
      state: { testRunDurationMs: 6300 },
      mesh_perf: { measureDurationS: 5, endedAtMs: 1_700_000_006_400, ...extra },
    });
  // The run started at endedAt - 6.3 s; warm-up 1 s, then 0.1 s (WARMUP_HANDOVER_MS); 5 s measured;
  // 0.2 s of in-flight requests after.
  assert.deepEqual(measuredWindow(summary({}), { warmupMs: 1000, durationMs: 5000 }), {
    startMs: 1_700_000_001_200,
    endMs: 1_700_000_006_200,
  });
  assert.deepEqual(measuredWindow(summary({ userScript: true }), { warmupMs: 1000, durationMs: 5000 }), {
    startMs: 1_700_000_000_100,
    endMs: 1_700_000_006_400,
  });
  assert.equal(measuredWindow(JSON.stringify({ metrics: {}, mesh_perf: {} }), { warmupMs: 0, durationMs: 1000 }), undefined);
  assert.equal(measuredWindow('not json', { warmupMs: 0, durationMs: 1000 }), undefined);
});

test('the shortest window with a CPU figure: two of the longest kubelet refreshes, more when scraping rarely', () => {
  // A sample is 10 to 30 s old (cAdvisor's housekeeping: 10 s, 15 s while idle, each jittered up to 2×).
  assert.equal(minimumCpuWindowMs(2000), 60_000);
  assert.equal(minimumCpuWindowMs(10_000), 60_000);
  assert.equal(minimumCpuWindowMs(20_000), 100_000);
});

test('the client group sums the client pods the trial used (load.generators), not the idle ones', () => {
  // Three client pods in the mode (its largest profile runs 3 instances); this trial runs 2.
  const client = (i: number) => ({
    namespace: 'ns',
    pod: i === 0 ? 'mesh-perf-client' : `mesh-perf-client-${i}`,
    container: 'k6',
    podLabels: { 'app.kubernetes.io/name': 'mesh-perf-client', 'mesh-perf.dev/client-index': String(i) },
  });
  const rates = [300, 280, 2];
  const scrapes: Scrape[] = [0, 1, 2].map((step) => ({
    atMs: step * 2000,
    containers: [0, 1, 2].map((i) => ({ ...client(i), cpuSeconds: (rates[i]! / 1000) * 2 * step, memoryBytes: (60 + i) * 1024 * 1024 })),
  }));
  const labelled = (c: { namespace: string; pod: string; container: string }) => ({
    ...c,
    podLabels: client(Number(/-(\d)$/.exec(c.pod)?.[1] ?? 0)).podLabels,
  });
  const classify = (inUse: number | undefined) => (c: { namespace: string; pod: string; container: string }) => {
    const group = groupOf(labelled(c), { modeNamespaces: new Set(['ns']), meshNamespaces: new Set<string>(), clientsInUse: inUse });
    return group ? { group, scope: 'm' } : undefined;
  };
  const two = aggregateScrapes(scrapes, classify(2), 1000).usage;
  assert.deepEqual(
    two.map((u) => [u.group, u.cpuMillicores.avg, u.memoryMiB.avg]),
    [['client', 580, 121]],
  );
  const all = aggregateScrapes(scrapes, classify(undefined), 1000).usage;
  assert.deepEqual(
    all.map((u) => [u.group, u.cpuMillicores.avg, u.memoryMiB.avg]),
    [['client', 582, 183]],
  );
  // A client pod of a user's manifest without our label always counts.
  assert.equal(
    groupOf(
      { namespace: 'ns', pod: 'mesh-perf-client', container: 'k6' },
      { modeNamespaces: new Set(['ns']), meshNamespaces: new Set(), clientsInUse: 1 },
    ),
    'client',
  );
  assert.equal(groupOf(client(1), { modeNamespaces: new Set(['ns']), meshNamespaces: new Set(), clientsInUse: 1 }), undefined);
  // By the index label alone (a manifest of one's own keeps its own labels).
  assert.equal(
    groupOf(
      { namespace: 'ns', pod: 'my-k6-1', container: 'k6', podLabels: { 'mesh-perf.dev/client-index': '1' } },
      { modeNamespaces: new Set(['ns']), meshNamespaces: new Set(), clientsInUse: 2 },
    ),
    'client',
  );
});
