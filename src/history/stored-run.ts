// A run's two files in a store, as text: its body (run-codec.ts) and its timelines
// (timeline-codec.ts), each gzip-compressed and base64-encoded inside a script (store-scripts.ts).
// Gzip because browsers read it back themselves (DecompressionStream) and run files are most of a
// store; base64 because a script is text. The CLI reads them back here; the run page in the
// browser with the same codecs.
import { gunzipSync, gzipSync } from 'node:zlib';
import { migrateResults } from '../results/migrate.ts';
import type { RunResult } from '../results/types.ts';
import { messageOf } from '../util/errors.ts';
import {
  decodeBody,
  encodeBody,
  hasTimelines,
  type StoredBody,
  storedNumbers,
  timelinesOf,
  withoutTimelines,
  withTimelines,
} from './run-codec.ts';
import { packedScript, parsePackedScript } from './store-scripts.ts';
import { packable, packTimelines, storedTimeline, unpackTimelines } from './timeline-codec.ts';

export const RUN_FORMAT = 1;
export const TIMELINES_FORMAT = 1;
/** A run's timelines file once they are dropped (or when it never had any): the same text for every run. */
export const NO_TIMELINES = packedScript('timelines', TIMELINES_FORMAT, null);

export interface PackedRun {
  body: string;
  timelines: string;
  /** The run as a reader gets it back (numbers and timelines at their stored precision). */
  stored: RunResult;
}

/** A run as stored: numbers to 6 significant digits, timeline latencies on their 0.5% steps. */
export function storedForm(result: RunResult): RunResult {
  const numbers = storedNumbers(result);
  return {
    ...numbers,
    modes: numbers.modes.map((m) => ({ ...m, repetitions: m.repetitions.map((r) => ({ ...r, timeline: storedTimeline(r.timeline) })) })),
  };
}

/** The files of a run; `keepTimelines` false stores the stub instead of its timelines. */
export function packRun(result: RunResult, keepTimelines = true): PackedRun {
  const stored = storedForm(result);
  const body = packedScript('run', RUN_FORMAT, gzip(JSON.stringify(encodeBody(stored))));
  if (!keepTimelines || !hasTimelines(stored)) {
    return { body, timelines: NO_TIMELINES, stored: keepTimelines ? stored : withoutTimelines(stored) };
  }
  const timelines = timelinesOf(stored);
  // Timelines packTimelines cannot hold exactly (fractional milliseconds) are stored as JSON.
  const bytes = packable(timelines) ? packTimelines(timelines) : new TextEncoder().encode(JSON.stringify(timelines));
  return { body, timelines: packedScript('timelines', TIMELINES_FORMAT, gzipBytes(bytes)), stored };
}

/** Why a file is not what it should be: thrown with the path, worded by the caller. */
export class StoredFileError extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(reason);
    this.name = 'StoredFileError';
  }
}

/** The run document a body file holds (not yet migrated or checked), its timelines empty. */
export function readBody(text: string, path: string): RunResult {
  const parsed = parsePackedScript(text, 'run');
  if (!parsed.ok) throw new StoredFileError(path, parsed.reason);
  const { format, base64 } = parsed.value;
  if (format !== RUN_FORMAT)
    throw new StoredFileError(path, `is in run file format ${format}, not one this mesh-perf reads (${RUN_FORMAT}); upgrade mesh-perf`);
  if (base64 === null) throw new StoredFileError(path, 'holds no run');
  let json: string;
  try {
    json = gunzipSync(Buffer.from(base64, 'base64')).toString('utf8');
  } catch (error) {
    throw new StoredFileError(path, `is damaged: its content does not decompress (${messageOf(error)})`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(json);
  } catch (error) {
    throw new StoredFileError(path, `is damaged: its content is not valid JSON (${messageOf(error)})`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc) || !Array.isArray((doc as StoredBody).modes))
    throw new StoredFileError(path, 'does not hold a stored run (expected an object with "modes")');
  return decodeBody(doc as StoredBody);
}

/** A timelines file's timelines, or undefined for the stub (dropped or never recorded). */
export function readTimelines(text: string, path: string): RunResult['modes'][number]['repetitions'][number]['timeline'][] | undefined {
  const parsed = parsePackedScript(text, 'timelines');
  if (!parsed.ok) throw new StoredFileError(path, parsed.reason);
  const { format, base64 } = parsed.value;
  if (format !== TIMELINES_FORMAT)
    throw new StoredFileError(
      path,
      `is in timelines format ${format}, not one this mesh-perf reads (${TIMELINES_FORMAT}); upgrade mesh-perf`,
    );
  if (base64 === null) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = gunzipSync(Buffer.from(base64, 'base64'));
  } catch (error) {
    throw new StoredFileError(path, `is damaged: its content does not decompress (${messageOf(error)})`);
  }
  try {
    return bytes[0] === 0x5b ? JSON.parse(Buffer.from(bytes).toString('utf8')) : unpackTimelines(bytes);
  } catch (error) {
    throw new StoredFileError(path, `is damaged: ${messageOf(error)}`);
  }
}

/**
 * The run its files hold, migrated to the current results schema and checked against it (errors
 * name the body's path and the field). Without a timelines text the run has none.
 */
export function unpackRun(body: string, bodyPath: string, timelines?: { text: string; path: string }): RunResult {
  const doc = readBody(body, bodyPath);
  const points = timelines ? readTimelines(timelines.text, timelines.path) : undefined;
  let whole = doc;
  if (points) {
    const merged = withTimelines(doc, points);
    if (!merged)
      throw new StoredFileError(timelines!.path, `does not belong to ${bodyPath}: it holds ${points.length} repetitions' timelines`);
    whole = merged;
  }
  return migrateResults(whole, bodyPath);
}

/**
 * A stored run read back (and checked) for `mesh-perf report --store`: its files stay as they are
 * (a body in this version's format is what this version writes; recompressing would rewrite every
 * file for nothing), but its timelines become the stub once they are dropped. `result` is the run
 * with its timelines.
 */
export function restoreRun(
  body: string,
  bodyPath: string,
  timelines: { text: string; path: string } | undefined,
  keepTimelines: boolean,
): { result: RunResult; body: string; timelines: string } {
  const result = unpackRun(body, bodyPath, timelines);
  const kept = keepTimelines && hasTimelines(result);
  return {
    result: kept ? result : withoutTimelines(result),
    body,
    timelines: kept && timelines ? timelines.text : NO_TIMELINES,
  };
}

function gzip(text: string): string {
  return gzipBytes(new TextEncoder().encode(text));
}

function gzipBytes(bytes: Uint8Array): string {
  return gzipSync(bytes, { level: 9 }).toString('base64');
}
