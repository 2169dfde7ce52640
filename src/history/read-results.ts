// Finds and reads the results a user hands to `publish` / `report`: a results.json, a run's
// output folder (holding results.json), or a folder of run folders. Files are migrated to the
// current schema; a bad one is a usage error naming it (exit 2) — it is the user's input, not
// the store.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { type ConfirmationRecord, readConfirmation } from '../confirm/record.ts';
import { parseResultsJson } from '../results/migrate.ts';
import type { RunResult } from '../results/types.ts';
import { UsageError } from '../util/errors.ts';
import { specialFileKind } from '../util/file-kind.ts';

/** `flag` names the option the path came from in messages (--results for publish and report). */
export async function findResultFiles(path: string, flag = '--results'): Promise<string[]> {
  const info = await stat(path).catch(() => undefined);
  if (!info)
    throw new UsageError(`${flag} ${path} does not exist; expected a results.json or the folder a run wrote (mesh-perf-results/<run-id>)`);
  if (info.isFile()) return [path];
  const special = specialFileKind(info);
  if (special) throw new UsageError(`--results ${path} is ${special}; expected a results.json file or the folder a run wrote`);
  const direct = join(path, 'results.json');
  if (await isFile(direct)) return [direct];
  // Its runs are two runs' settings side by side, not days of a series.
  if (await isFile(join(path, CONFIRMATION_FILE)))
    throw new UsageError(
      `${flag} ${path} is the folder of a confirmation (${CONFIRMATION_FILE}): record its verdict with publish --confirmation ${path}`,
    );
  const found: string[] = [];
  for (const entry of (await readdir(path, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.isDirectory() && (await isFile(join(path, entry.name, 'results.json')))) found.push(join(path, entry.name, 'results.json'));
  }
  if (found.length === 0) throw new UsageError(`${flag} ${path} holds no results.json (looked in the folder and its subfolders)`);
  return found;
}

export async function readResults(paths: string[], cwd: string, flag = '--results'): Promise<{ file: string; result: RunResult }[]> {
  const out: { file: string; result: RunResult }[] = [];
  for (const given of paths) {
    for (const file of await findResultFiles(resolve(cwd, given), flag)) {
      out.push({ file, result: parseResultsJson(await readFile(file, 'utf8'), file) });
    }
  }
  return out;
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** The file `mesh-perf confirm` writes its verdict to. */
export const CONFIRMATION_FILE = 'confirmation.json';

/** Confirmation records handed to `publish --confirmation`: a confirmation.json or the folder holding one. */
export async function readConfirmationFiles(
  paths: string[],
  cwd: string,
  flag = '--confirmation',
): Promise<{ file: string; record: ConfirmationRecord }[]> {
  const out: { file: string; record: ConfirmationRecord }[] = [];
  for (const given of paths) {
    const path = resolve(cwd, given);
    const info = await stat(path).catch(() => undefined);
    if (!info)
      throw new UsageError(`${flag} ${given} does not exist; expected the confirmation.json mesh-perf confirm wrote, or its folder`);
    const file = info.isDirectory() ? join(path, CONFIRMATION_FILE) : path;
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text === undefined) throw new UsageError(`${flag} ${given} holds no ${CONFIRMATION_FILE}`);
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw new UsageError(`${flag} ${file} is not valid JSON (${(error as Error).message})`);
    }
    const read = readConfirmation(raw);
    if (!read.ok) throw new UsageError(`${flag} ${file} ${read.reason}; expected what mesh-perf confirm writes`);
    out.push({ file, record: read.record });
  }
  return out;
}
