// Reads a results.json of any known schema version and returns the current shape. Each step
// migrates one version to the next (migrate-steps.ts), so old history stays readable forever.
import { RESULTS_SCHEMA_VERSION, type RunResult } from './types.ts';
import { resultsSchema } from './schema.ts';
import { migrateDocument } from './migrate-steps.ts';
import { UsageError } from '../util/errors.ts';
import { redactInPlace } from '../util/redact.ts';

export class ResultsFormatError extends UsageError {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`${path}: ${reason}`);
    this.name = 'ResultsFormatError';
  }
}

export function migrateResults(raw: unknown, path: string): RunResult {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ResultsFormatError(path, 'is not a mesh-perf results file (expected a JSON object)');
  }
  let doc = raw as Record<string, unknown>;
  const version = doc.schemaVersion;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw new ResultsFormatError(
      path,
      `has no valid schemaVersion (got ${JSON.stringify(version)}, expected an integer 1..${RESULTS_SCHEMA_VERSION})`,
    );
  }
  if (version > RESULTS_SCHEMA_VERSION) {
    throw new ResultsFormatError(
      path,
      `has schemaVersion ${version}, newer than this mesh-perf understands (${RESULTS_SCHEMA_VERSION}); upgrade mesh-perf to read it`,
    );
  }
  try {
    doc = migrateDocument(doc);
  } catch (error) {
    throw new ResultsFormatError(path, (error as Error).message);
  }
  if (!Array.isArray(doc.modes) || typeof doc.run !== 'object') {
    throw new ResultsFormatError(path, 'is missing "modes" or "run"; it does not look like a mesh-perf results file');
  }
  // Past the migrations the document must be exactly the current contract: every reader downstream
  // (compare, history, the fork-safe commenter, report) then trusts its types.
  const checked = resultsSchema.safeParse(doc);
  if (!checked.success) {
    const [first, ...more] = checked.error.issues;
    const field = first!.path.length > 0 ? first!.path.join('.') : '(the document)';
    const others = more.length > 0 ? ` (and ${more.length} more problem${more.length === 1 ? '' : 's'})` : '';
    throw new ResultsFormatError(
      path,
      `field ${field}: ${first!.message}${others}; not a valid mesh-perf results file (schema/results.schema.json)`,
    );
  }
  // A file written elsewhere, or before redaction existed, must not carry a credential further
  // (into a report, the store, a comment): read back redacted, as the pipeline writes.
  return redactInPlace(doc) as unknown as RunResult;
}

export function parseResultsJson(text: string, path: string): RunResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ResultsFormatError(path, `is not valid JSON (${(error as Error).message})`);
  }
  return migrateResults(raw, path);
}
