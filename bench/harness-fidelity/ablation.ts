// What each part of the engine's k6 script costs: the product's own invocation (buildInvocation:
// k6/http.js, k6/mesh-perf-lib.js, the rendered parameters, K6_ENGINE_ARGS) with one part
// switched off, or with something the script deliberately leaves out switched on. Each change
// edits the script text or parameters mesh-perf renders and fails loudly when what it edits is
// no longer there, so the ablation cannot silently measure a script that has moved on.
import type { K6Invocation } from '../../src/load/types.ts';

export interface Variant {
  name: string;
  /** What the variant shows: "off" a part the script has, "on" one it leaves out. */
  change: 'off' | 'on' | 'none';
  apply: (invocation: K6Invocation) => void;
}

const HTTP = 'http.js';
const LIB = 'mesh-perf-lib.js';

/** Replaces every occurrence of `from` in a file of the invocation; at least one must exist. */
function edit(invocation: K6Invocation, file: string, from: string, to: string): void {
  const text = invocation.files[file];
  if (text === undefined || !text.includes(from))
    throw new Error(`ablation: ${file} no longer contains ${JSON.stringify(from)}; update bench/harness-fidelity/ablation.ts`);
  invocation.files[file] = text.split(from).join(to);
}

function params(invocation: K6Invocation, change: (p: Record<string, unknown>) => void): void {
  const p = JSON.parse(invocation.env.MESH_PERF_PARAMS!) as Record<string, unknown>;
  change(p);
  invocation.env.MESH_PERF_PARAMS = JSON.stringify(p);
}

const CLOCK_CHECK = '  const now = Date.now();\n  if (now >= bucketEnds) bucketEnds = tagBucket(now);\n';

const offTag = (i: K6Invocation) => edit(i, HTTP, CLOCK_CHECK, '');
const offTimeline = (i: K6Invocation) => params(i, (p) => (p.buckets = 0));
const offOutcomes = (i: K6Invocation) =>
  params(i, (p) => {
    p.countedStatuses = [];
    p.errorCodes = [];
  });
const offRequestParams = (i: K6Invocation) => edit(i, HTTP, 'http.get(URL, REQUEST)', 'http.get(URL)');
// The summary file then carries only what the bench reads (whole-run request count and latency).
const offSummaryExport = (i: K6Invocation) =>
  edit(
    i,
    LIB,
    'out[params.summaryFile] = JSON.stringify(data);',
    'out[params.summaryFile] = JSON.stringify({ metrics: { http_reqs: data.metrics.http_reqs, http_req_duration: data.metrics.http_req_duration, dropped_iterations: data.metrics.dropped_iterations } });',
  );

export const VARIANTS: Variant[] = [
  { name: 'engine (as mesh-perf runs it)', change: 'none', apply: () => {} },
  { name: 'timeline tag (clock check, mp_bucket VU tag)', change: 'off', apply: offTag },
  { name: 'timeline sub-metrics (2 per bucket)', change: 'off', apply: offTimeline },
  { name: 'status and error-code sub-metrics', change: 'off', apply: offOutcomes },
  { name: 'every sub-metric (thresholds: {})', change: 'off', apply: (i) => edit(i, LIB, '    thresholds,\n', '    thresholds: {},\n') },
  { name: 'request parameters (timeout)', change: 'off', apply: offRequestParams },
  { name: 'summary export (handleSummary JSON)', change: 'off', apply: offSummaryExport },
  {
    name: 'every part of the script above: the request alone',
    change: 'off',
    apply: (i) => {
      offTag(i);
      offTimeline(i);
      offOutcomes(i);
      offRequestParams(i);
      offSummaryExport(i);
      edit(i, LIB, '    thresholds,\n', '    thresholds: {},\n');
    },
  },
  {
    name: 'warm-up scenario (2 s before the measured one)',
    change: 'off',
    apply: (i) =>
      params(i, (p) => {
        const scenarios = p.scenarios as Record<string, Record<string, unknown>>;
        if (!scenarios.warmup) throw new Error('ablation: the engine no longer renders a warm-up scenario');
        delete scenarios.warmup;
        scenarios.measure!.startTime = '0s';
      }),
  },
  {
    name: "VU pool as plain k6's (200 VUs)",
    change: 'off',
    apply: (i) =>
      params(i, (p) => {
        for (const s of Object.values(p.scenarios as Record<string, Record<string, unknown>>)) s.preAllocatedVUs = s.maxVUs = 200;
      }),
  },
  {
    // What the engine did before: the measured scenario started as the warm-up, cut off, ended.
    name: 'measured start at the warm-up end (no handover gap, warm-up graceful stop 0 s)',
    change: 'on',
    apply: (i) =>
      params(i, (p) => {
        const scenarios = p.scenarios as Record<string, Record<string, unknown>>;
        if (!scenarios.warmup || scenarios.warmup.gracefulStop === '0s')
          throw new Error('ablation: the engine no longer renders a warm-up with a handover before the measured scenario');
        scenarios.warmup.gracefulStop = '0s';
        scenarios.measure!.startTime = scenarios.warmup.duration;
        p.warmupMs = Number.parseFloat(String(scenarios.warmup.duration)) * 1000;
      }),
  },
  {
    // What the engine did before: every VU's init built the options and kept them as its export.
    name: 'options (thresholds) built in every VU, not only in the init k6 reads',
    change: 'on',
    apply: (i) => {
      edit(i, HTTP, 'export const options = optionsForInit();', 'export const options = buildOptions();');
      edit(i, HTTP, 'optionsForInit,', 'buildOptions,');
    },
  },
  {
    name: 'threshold evaluation (k6 without --no-thresholds)',
    change: 'on',
    apply: (i) => {
      if (!i.args.includes('--no-thresholds')) throw new Error('ablation: the engine no longer runs k6 with --no-thresholds');
      i.args = i.args.filter((a) => a !== '--no-thresholds');
    },
  },
  {
    name: "k6's default system tags (url, name, method, proto, group, …)",
    change: 'on',
    apply: (i) => {
      if (!i.args.some((a) => a.startsWith('--system-tags='))) throw new Error('ablation: the engine no longer narrows --system-tags');
      i.args = i.args.filter((a) => !a.startsWith('--system-tags='));
    },
  },
  {
    name: 'a check per request (status is 200)',
    change: 'on',
    apply: (i) => {
      edit(
        i,
        HTTP,
        "import http from 'k6/http';",
        "import http from 'k6/http';\nimport { check } from 'k6';\nconst OK = { 'status is 200': (r) => r.status === 200 };",
      );
      edit(i, HTTP, 'http.get(URL, REQUEST);', 'check(http.get(URL, REQUEST), OK);');
    },
  },
  {
    name: 'response bodies read (discardResponseBodies: false)',
    change: 'on',
    apply: (i) => edit(i, LIB, 'discardResponseBodies: true', 'discardResponseBodies: false'),
  },
];
