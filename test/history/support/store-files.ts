// Reads a history store's files the way a person inspecting the branch would, for tests: the
// suite index from its monthly shards, a run from its body and timelines files (gzip + base64
// inside a script), and writes a hand-edited run body back. Over a git branch or a folder.
import { gzipSync } from 'node:zlib';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { encodeBody } from '../../../src/history/run-codec.ts';
import { packedScript, parsePackedScript } from '../../../src/history/store-scripts.ts';
import { readBody, readTimelines, RUN_FORMAT } from '../../../src/history/stored-run.ts';
import { parseShard, sortEntries, type IndexEntry } from '../../../src/history/suite-index.ts';
import { timelinesPathFor } from '../../../src/history/layout.ts';
import type { RunResult } from '../../../src/results/types.ts';
import { branchFiles, showFile } from './git-repo.ts';

export interface StoreReader {
  files(): Promise<string[]>;
  read(path: string): Promise<string>;
}

export function gitStore(remote: string, branch = 'gh-pages'): StoreReader {
  return { files: () => branchFiles(remote, branch), read: (path) => showFile(remote, branch, path) };
}

export function folderStore(root: string): StoreReader {
  return {
    files: async () =>
      (await readdir(root, { recursive: true, withFileTypes: true }))
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name).slice(root.length + 1))
        .sort(),
    read: (path) => readFile(join(root, path), 'utf8'),
  };
}

/** A suite's index: every shard's entries, oldest first; `tl` says whether the run's timelines are still stored. */
export async function readIndex(
  store: StoreReader,
  suite: string,
): Promise<{ schemaVersion: number; runs: (IndexEntry & { tl: boolean })[] }> {
  const files = await store.files();
  const runs: IndexEntry[] = [];
  let schemaVersion = 0;
  for (const path of files) {
    const match = new RegExp(`^runs/${suite}/index/(\\d{4}-\\d{2})\\.${suite}\\.js$`).exec(path);
    if (!match) continue;
    const text = await store.read(path);
    const parsed = parseShard(text, suite, match[1]!);
    if (!parsed.ok) throw new Error(`${path} ${parsed.reason}`);
    schemaVersion = JSON.parse(text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'))).schemaVersion;
    runs.push(...parsed.entries);
  }
  const withTl = [];
  for (const entry of sortEntries(runs)) {
    const tl = files.includes(timelinesPathFor(entry.file)) ? await store.read(timelinesPathFor(entry.file)) : undefined;
    withTl.push({ ...entry, tl: tl !== undefined && readTimelines(tl, 'tl') !== undefined });
  }
  return { schemaVersion, runs: withTl };
}

/** A stored run as its files hold it (not checked against the schema), timelines included when stored. */
export async function readStoredRun(store: StoreReader, file: string): Promise<RunResult> {
  const body = readBody(await store.read(file), file);
  const tlPath = timelinesPathFor(file);
  const timelines = (await store.files()).includes(tlPath) ? readTimelines(await store.read(tlPath), tlPath) : undefined;
  if (!timelines) return body;
  let i = 0;
  return {
    ...body,
    modes: body.modes.map((m) => ({ ...m, repetitions: m.repetitions.map((r) => ({ ...r, timeline: timelines[i++]! })) })),
  };
}

/** A body file holding `doc` as given (a hand edit: nothing checks it). */
export function storedBodyText(doc: RunResult): string {
  return packedScript('run', RUN_FORMAT, gzipSync(JSON.stringify(encodeBody(doc))).toString('base64'));
}

/** The decoded text of a store file for a text search (secrets): run files inflated, others as they are. */
export function readableText(path: string, text: string): string {
  for (const kind of ['run', 'timelines'] as const) {
    const parsed = parsePackedScript(text, kind);
    if (parsed.ok)
      return parsed.value.base64 === null ? text : JSON.stringify(kind === 'run' ? readBody(text, path) : readTimelines(text, path));
  }
  return text;
}

/** The report a store's run page renders for a run (what src/browser/run-page.ts draws in a browser). */
export async function storedRunPage(store: StoreReader, file: string): Promise<string> {
  const { readStoredRun: unpack } = await import('../../../src/history/suite-state.ts');
  const { runPageHtml } = await import('../../../src/browser/run-page-html.ts');
  const html = await store.read('run.html');
  const config = JSON.parse(/<script type="application\/json" id="mesh-perf-run-page">(.*?)<\/script>/s.exec(html)![1]!);
  const tlPath = timelinesPathFor(file);
  const timelines = (await store.files()).includes(tlPath) ? { text: await store.read(tlPath), path: tlPath } : undefined;
  // As the page does: the suite's change points decide whether it links the one the run follows.
  const suite = file.split('/')[1]!;
  const cpPath = `runs/${suite}/change-points.${suite}.js`;
  const changes = (await store.files()).includes(cpPath)
    ? JSON.parse(/^meshPerfStore\.changePoints\((.*)\);\n?$/s.exec(await store.read(cpPath))![1]!)
    : undefined;
  return runPageHtml(unpack(await store.read(file), file, 'store', timelines), config, undefined, changes);
}
