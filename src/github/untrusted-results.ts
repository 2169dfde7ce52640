// Reads results.json out of an artifact produced by a fork's pull_request run. It is untrusted
// data: size-capped, parsed as JSON only, migrated and checked against the results schema by the
// same reader as history, and capped in modes and repetitions. Strings are escaped later, when rendered.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { migrateResults } from '../results/migrate.ts';
import type { RunResult } from '../results/types.ts';
import { UsageError } from '../util/errors.ts';

export const MAX_RESULTS_BYTES = 32 * 1024 * 1024;
const MAX_MODES = 1_000;
const MAX_REPETITIONS = 100_000;

export async function readUntrustedResults(path: string): Promise<{ result: RunResult; path: string }> {
  let file = path;
  const info = await stat(path).catch(() => undefined);
  if (!info)
    throw new UsageError(`input results: ${path} does not exist; point it at the downloaded artifact's results.json or its folder`);
  if (info.isDirectory()) file = join(path, 'results.json');
  const fileInfo = await stat(file).catch(() => undefined);
  if (!fileInfo?.isFile())
    throw new UsageError(`input results: no results.json in ${path}; did the benchmark job upload its results folder as the artifact?`);
  if (fileInfo.size > MAX_RESULTS_BYTES)
    throw new UsageError(
      `input results: ${file} is ${fileInfo.size} bytes, over the ${MAX_RESULTS_BYTES}-byte cap for untrusted artifacts`,
    );
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new UsageError(
      `input results: ${file} is not valid JSON (${error instanceof Error ? error.message.slice(0, 120) : 'parse error'})`,
    );
  }
  const result = migrateResults(raw, file);
  const problem = shapeProblem(result);
  if (problem) throw new UsageError(`input results: ${file} ${problem}`);
  return { result, path: file };
}

/** The caps on size an untrusted file must keep to; its shape the results schema has already checked. */
function shapeProblem(result: RunResult): string | undefined {
  if (result.modes.length > MAX_MODES) return `has ${result.modes.length} modes, over the cap of ${MAX_MODES}`;
  const reps = result.modes.reduce((n, mode) => n + mode.repetitions.length, 0);
  if (reps > MAX_REPETITIONS) return `has ${reps} repetitions, over the cap of ${MAX_REPETITIONS}`;
  return undefined;
}
