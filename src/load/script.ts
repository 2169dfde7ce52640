// Chooses the k6 script (k6/http.js, k6/http-pacer.js or k6/grpc.js, committed files) and
// renders the parameters it reads from MESH_PERF_PARAMS: scenarios (warm-up, then "measure"), VU
// pool, timeline buckets, request shape, and which sub-metrics to keep; the pacer's own schedule
// comes from pacer-params.ts. The parameter rendering is pure; reading the script files is not.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { LoadProfile } from '../config/validate.ts';
import { EnvironmentError } from '../util/errors.ts';
import { timelineBucketMs } from './timeline.ts';
import type { ModeTarget } from './types.ts';
import { sizeVus } from './vus.ts';
import { type PacerParams, pacedProfile, PACER_ENTRY, pacerParams, pacerScenario, type RenderOptions } from './pacer-params.ts';
import { measuredStartMs, WARMUP_HANDOVER_MS } from './window.ts';

export const SUMMARY_FILE = 'mesh-perf-summary.json';
export const TREND_STATS = ['min', 'avg', 'med', 'p(75)', 'p(90)', 'p(95)', 'p(99)', 'p(99.9)', 'max', 'count'];
/** HTTP statuses counted one by one; anything else lands in "other". */
export const COUNTED_HTTP_STATUSES = [0, 200, 201, 202, 204, 301, 302, 304, 400, 401, 403, 404, 408, 409, 429, 500, 502, 503, 504];
export const GRPC_STATUSES = Array.from({ length: 17 }, (_, i) => i);
/**
 * k6's network error codes (lib/netext/httpext/error_codes.go in k6), counted one by one for a
 * request that got no HTTP status; anything else lands in "other network error".
 */
export const K6_ERROR_CODES: Record<number, string> = {
  1000: 'network error',
  1010: 'non-TCP network error',
  1020: 'invalid URL',
  1050: 'timeout',
  1100: 'DNS error',
  1101: 'DNS: no such host',
  1110: 'blacklisted IP',
  1111: 'blocked hostname',
  1200: 'TCP error',
  1201: 'broken pipe',
  1202: 'TCP error (unknown errno)',
  1210: 'connect error',
  1211: 'connect timeout',
  1212: 'connection refused',
  1213: 'connect error (unknown errno)',
  1220: 'connection reset',
  1300: 'TLS error',
  1310: 'TLS: unknown certificate authority',
  1311: 'TLS: certificate does not match host',
  1701: 'response decompression error',
};
export const SCRIPT_LIB = 'mesh-perf-lib.js';
/**
 * The system tags our scripts' statistics use: their sub-metrics, and the raw rows a group's
 * merge reads. k6 builds every enabled system tag into the tag set of every sample of every
 * request (url, name, method, proto, group, … by default), and matches each sample against every
 * sub-metric by walking that set: mesh-perf reads none of the others.
 */
export const ENGINE_SYSTEM_TAGS = ['scenario', 'expected_response', 'status', 'error_code'] as const;
/**
 * How k6 runs our scripts (not a user's: its own thresholds may gate and name any tag).
 *   --no-thresholds: the thresholds in our scripts only declare the sub-metrics mesh-perf reads
 *     (k6 creates a sub-metric for a threshold that names it, and keeps it without the threshold
 *     running); evaluated, k6 would sort every latency sub-metric's samples every 2 s under the
 *     lock its metrics pipeline waits on, a cost that grows with the run;
 *   --system-tags: ENGINE_SYSTEM_TAGS only.
 * bench/harness-fidelity's ablation measures what each saves.
 */
export const K6_ENGINE_ARGS: readonly string[] = ['--no-thresholds', `--system-tags=${ENGINE_SYSTEM_TAGS.join(',')}`];

export interface ScriptParams {
  protocol: 'http' | 'grpc';
  method: 'GET' | 'POST';
  url?: string;
  grpc?: string;
  headers: Record<string, string>;
  body?: string;
  payloadBytes?: number;
  timeoutMs: number;
  scenarios: Record<string, Record<string, unknown>>;
  measureDurationS: number;
  /** When the measured scenario starts, after warm-up and the handover (measuredStartMs): the script tags no request before it. */
  warmupMs: number;
  bucketMs: number;
  buckets: number;
  countedStatuses: number[];
  /** k6 error codes counted one by one (HTTP only). */
  errorCodes: number[];
  /** Tag that marks a successful request: expected_response:true (HTTP), status:0 (gRPC OK). */
  successTag: string;
  summaryFile: string;
  /** Set for a target serving a self-signed certificate (the ingress gateway's). */
  insecureSkipTLSVerify?: boolean;
  /** Set when the pacer sends the arrivals (k6/http-pacer.js). */
  pacer?: PacerParams;
}

export interface RenderedScript {
  /** Name of the entry script among files. */
  entry: string;
  files: Record<string, string>;
  params: ScriptParams;
}

export function renderParams(profile: LoadProfile, target: ModeTarget, options: RenderOptions = {}): ScriptParams {
  const bucketMs = timelineBucketMs(profile.durationMs);
  const paced = options.engine === 'pacer' && pacedProfile(profile);
  const headers = { ...(profile.headers ?? {}) };
  if (profile.method === 'POST' && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
    headers['Content-Type'] = 'text/plain';
  const grpc = profile.protocol === 'grpc';
  const params: ScriptParams = {
    protocol: profile.protocol,
    method: profile.method,
    headers,
    timeoutMs: profile.timeoutMs,
    scenarios: paced ? pacerScenario(profile, options.instances ?? 1) : renderScenarios(profile),
    measureDurationS: profile.durationMs / 1000,
    warmupMs: measuredStartMs(profile.warmupMs),
    bucketMs,
    buckets: Math.ceil(profile.durationMs / bucketMs),
    countedStatuses: grpc ? GRPC_STATUSES : COUNTED_HTTP_STATUSES,
    errorCodes: grpc ? [] : Object.keys(K6_ERROR_CODES).map(Number),
    successTag: grpc ? 'status:0' : 'expected_response:true',
    summaryFile: SUMMARY_FILE,
  };
  if (target.url) params.url = joinUrl(target.url, profile.path);
  if (target.grpc) params.grpc = target.grpc;
  if (target.insecureTls) params.insecureSkipTLSVerify = true;
  if (profile.body !== undefined) params.body = profile.body;
  if (profile.payloadBytes !== undefined) params.payloadBytes = profile.payloadBytes;
  if (paced) params.pacer = pacerParams(profile, bucketMs, params.buckets);
  return params;
}

export function renderScript(profile: LoadProfile, target: ModeTarget, options: RenderOptions = {}): RenderedScript {
  const params = renderParams(profile, target, options);
  const entry = profile.protocol === 'grpc' ? 'grpc.js' : params.pacer ? PACER_ENTRY : 'http.js';
  return { entry, files: { [entry]: readScript(entry), [SCRIPT_LIB]: readScript(SCRIPT_LIB) }, params };
}

function renderScenarios(profile: LoadProfile): Record<string, Record<string, unknown>> {
  const scenarios: Record<string, Record<string, unknown>> = {};
  const executor = (seconds: number, extra: Record<string, unknown>) => {
    if (profile.model === 'closed') return { executor: 'constant-vus', vus: profile.vus, duration: `${seconds}s`, ...extra };
    const { preAllocated, max } = sizeVus(profile.rate!, profile.expectedLatencyMs, profile.vus);
    return {
      executor: 'constant-arrival-rate',
      // Per 1000 s so fractional rates (0.5 rps) stay exact.
      rate: Math.round(profile.rate! * 1000),
      timeUnit: '1000s',
      duration: `${seconds}s`,
      preAllocatedVUs: preAllocated,
      maxVUs: max,
      ...extra,
    };
  };
  // The warm-up's graceful stop lets its last requests finish in the handover (measuredStartMs).
  if (profile.warmupMs > 0) scenarios.warmup = executor(profile.warmupMs / 1000, { gracefulStop: `${WARMUP_HANDOVER_MS / 2 / 1000}s` });
  scenarios.measure = executor(profile.durationMs / 1000, {
    startTime: `${measuredStartMs(profile.warmupMs) / 1000}s`,
    gracefulStop: `${Math.ceil(profile.timeoutMs / 1000) + 1}s`,
  });
  return scenarios;
}

function joinUrl(base: string, path: string | undefined): string {
  if (!path) return base;
  return base.replace(/\/+$/, '') + path;
}

/**
 * The committed scripts live in the repository's k6/ folder: above src/load/ when running from
 * source, above dist/ (or dist/chunks/) in the bundle. Walk up until it is found.
 */
function readScript(name: string): string {
  let dir = new URL('./', import.meta.url);
  for (let up = 0; up < 5; up++) {
    const candidate = new URL(`k6/${name}`, dir);
    if (existsSync(candidate)) return readFileSync(candidate, 'utf8');
    dir = new URL('../', dir);
  }
  throw new EnvironmentError(
    `the k6 script k6/${name} is missing next to mesh-perf (looked above ${fileURLToPath(import.meta.url)}); reinstall mesh-perf`,
  );
}
