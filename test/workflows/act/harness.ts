// Runs this repository's workflow files, unchanged, in a real workflow engine: nektos/act (built
// by scripts/install-test-tools.sh, patched for job.workflow_repository / job.workflow_sha), with
// jobs on this host (-P ubuntu-latest=-self-hosted), act's artifact server, the recording GitHub
// REST stand-in as GITHUB_API_URL, and a local "server" of bare git repositories as
// GITHUB_SERVER_URL (file://):
//   <server>/org/mesh-perf-action   this action, built into a temporary copy, tagged v1
//   <server>/acme/app.git           the caller's repository, whose gh-pages branch is the history
// act fetches `uses: org/mesh-perf-action...@ref` from that server with git, as GitHub would from
// github.com. actions/checkout (of another repository), upload-artifact and download-artifact are
// small local stand-ins (stand-ins/), mapped with --local-repository.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { cachedToolPath } from '../../../src/tools/cache.ts';
import { freePortRun } from '../../support/ports.ts';

export const ROOT = resolve(import.meta.dirname, '..', '..', '..');
export const ACT_VERSION = '0.2.89-job-workflow.1';
export const ACT = cachedToolPath('act', ACT_VERSION);
export const K6 = cachedToolPath('k6', '1.4.2');
export const CALLER_REPO = 'acme/app';

/** A pull_request event's payload for the caller's repository (a fork's when headRepo is another). */
export function prPayload(number: number, pr: { headRepo?: string; headSha?: string; baseSha?: string } = {}) {
  return {
    action: 'synchronize',
    number,
    pull_request: {
      number,
      head: { sha: pr.headSha ?? 'a'.repeat(40), ref: 'feature', repo: { full_name: pr.headRepo ?? CALLER_REPO } },
      base: { sha: pr.baseSha ?? 'b'.repeat(40), ref: 'main', repo: { full_name: CALLER_REPO } },
    },
    repository: { full_name: CALLER_REPO, name: 'app', default_branch: 'main' },
  };
}
const STAND_INS = join(import.meta.dirname, 'stand-ins');
const run = promisify(execFile);

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.invalid', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();

export interface World {
  dir: string;
  /** file:// URL of the bare repositories, GITHUB_SERVER_URL of every run. */
  serverUrl: string;
  /** The action's bare repository on the server. */
  actionBare: string;
  /** The caller's bare repository (its gh-pages branch is the default history store). */
  callerBare: string;
  artifacts: string;
  close(): Promise<void>;
}

/**
 * The action as a user gets it: the sources' build (dist/, schema/) plus the files action.yml,
 * the sub-actions and the reusable workflows need, committed to a bare repository and tagged v1.
 */
export async function createWorld(prefix: string): Promise<World> {
  const dir = await mkdtemp(join(tmpdir(), `mesh-perf-act-${prefix}-`));
  const server = join(dir, 'server');
  const work = join(dir, 'action-src');
  await mkdir(work, { recursive: true });
  await run(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--outdir', work], { cwd: ROOT, timeout: 180_000 });
  for (const path of [
    'action.yml',
    'setup',
    'comment',
    'k6',
    'manifests',
    'package.json',
    '.github/workflows/mesh-perf.yml',
    '.github/workflows/mesh-perf-publish.yml',
    '.github/workflows/mesh-perf-confirm.yml',
  ]) {
    await cp(join(ROOT, path), join(work, path), { recursive: true });
  }
  git(work, 'init', '--quiet');
  git(work, 'add', '-A');
  git(work, 'commit', '--quiet', '-m', 'mesh-perf-action (test build)');
  const actionBare = join(server, 'org', 'mesh-perf-action');
  git(dir, 'clone', '--quiet', '--bare', work, actionBare);
  // GitHub serves any reachable commit by SHA; act (go-git) and the checkout stand-in fetch by SHA.
  git(actionBare, 'config', 'uploadpack.allowAnySHA1InWant', 'true');
  git(actionBare, 'tag', 'v1', 'HEAD');
  // The repository is also reached as <name>.git, as GitHub serves it: this project's own CI job's
  // history store is this repository (an unreachable store is exit 3, so it must exist here too).
  await symlink(actionBare, `${actionBare}.git`);
  const callerBare = join(server, 'acme', 'app.git');
  git(dir, 'init', '--quiet', '--bare', callerBare);
  const artifacts = join(dir, 'artifacts');
  await mkdir(artifacts);
  return { dir, serverUrl: `file://${server}`, actionBare, callerBare, artifacts, close: () => rm(dir, { recursive: true, force: true }) };
}

/** Commits a change to the action repository (a clone of the bare one) and returns the new SHA. */
export async function commitToAction(world: World, change: (checkout: string) => Promise<void>, message: string): Promise<string> {
  const checkout = await mkdtemp(join(world.dir, 'action-change-'));
  git(world.dir, 'clone', '--quiet', world.actionBare, checkout);
  await change(checkout);
  git(checkout, 'add', '-A');
  git(checkout, 'commit', '--quiet', '-m', message);
  git(checkout, 'push', '--quiet', 'origin', 'HEAD:main');
  return git(checkout, 'rev-parse', 'HEAD');
}

export function actionCommit(world: World, ref: string): string {
  return git(world.dir, '--git-dir', world.actionBare, 'rev-parse', `${ref}^{commit}`);
}

export function moveTag(world: World, tag: string, sha: string): void {
  git(world.dir, '--git-dir', world.actionBare, 'tag', '-f', tag, sha);
}

/** The caller's repository: the given files committed on main, origin pointing at github.com/acme/app (act derives GITHUB_REPOSITORY from it). */
export async function createCaller(world: World, name: string, files: Record<string, string>): Promise<string> {
  const dir = join(world.dir, name);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(resolve(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  git(dir, 'init', '--quiet');
  git(dir, 'add', '-A');
  git(dir, 'commit', '--quiet', '-m', 'caller');
  git(dir, 'remote', 'add', 'origin', `https://github.com/${CALLER_REPO}.git`);
  return dir;
}

/**
 * The action repository itself as the caller (as in this project's own CI): a commit on top of
 * `base` adding the given files, pushed to the server so it can be fetched by SHA, with origin
 * pointing at github.com/org/mesh-perf-action. Returns the folder and the new commit.
 */
export async function createSelfCaller(
  world: World,
  name: string,
  base: string,
  files: Record<string, string>,
): Promise<{ dir: string; sha: string }> {
  const dir = join(world.dir, name);
  git(world.dir, 'clone', '--quiet', world.actionBare, dir);
  git(dir, 'checkout', '--quiet', '-b', name, base);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(resolve(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  git(dir, 'add', '-A');
  git(dir, 'commit', '--quiet', '-m', name);
  git(dir, 'push', '--quiet', 'origin', `HEAD:refs/heads/${name}`);
  git(dir, 'remote', 'set-url', 'origin', 'https://github.com/org/mesh-perf-action.git');
  return { dir, sha: git(dir, 'rev-parse', 'HEAD') };
}

/** A copyable example from workflows/ or a workflow of this repository, as text. */
export function workflowText(path: string): Promise<string> {
  return readFile(join(ROOT, path), 'utf8');
}

/** A mesh-perf.yaml for platform local: two modes on this machine, a short, light load. */
export function localConfig(extra: string[] = []): string {
  return [
    'platform: local',
    'modes:',
    '  - { name: baseline }',
    '  - { name: one-hop, local: { hops: 1 } }',
    'load: { rate: 20, duration: 1s, warmup: 1s, repetitions: 1 }',
    ...extra,
    '',
  ].join('\n');
}

export interface ActRun {
  code: number | null;
  output: string;
}

export interface ActOptions {
  world: World;
  caller: string;
  workflow: string;
  event: string;
  payload: unknown;
  token: string;
  apiUrl: string;
  runId: number;
  env?: Record<string, string>;
  timeoutMs?: number;
  /** A command act runs under (the kind tier: nsenter into its host's network), and act's own environment beside PATH and HOME. */
  launcher?: string[];
  processEnv?: Record<string, string>;
  /** Called with act's output as it comes (to act on a step's progress). */
  onOutput?: (text: string) => void;
}

/** Runs one workflow file of the caller's repository for one event, as GitHub would on that event. */
export async function runAct(options: ActOptions): Promise<ActRun> {
  const { world } = options;
  const eventFile = join(world.dir, `event-${options.runId}.json`);
  await writeFile(eventFile, JSON.stringify(options.payload));
  const workflowFile = join(options.caller, '.github', 'workflows', options.workflow);
  const env: Record<string, string> = {
    GITHUB_SERVER_URL: world.serverUrl,
    GITHUB_API_URL: options.apiUrl,
    GITHUB_GRAPHQL_URL: `${options.apiUrl}/graphql`,
    GITHUB_RUN_ID: String(options.runId),
    GITHUB_RUN_ATTEMPT: '1',
    // The pinned k6 build; the action takes K6_PATH before downloading one.
    K6_PATH: K6,
    ...options.env,
  };
  const args = [
    options.event,
    '-W',
    workflowFile,
    '-e',
    eventFile,
    '-P',
    'ubuntu-latest=-self-hosted',
    '--artifact-server-path',
    world.artifacts,
    '--artifact-server-addr',
    '127.0.0.1',
    '--artifact-server-port',
    String(await freePortRun(1)), // act binds it later: below the ephemeral range (test/support/ports.ts)
    '--action-cache-path',
    join(world.dir, 'act-cache'),
    '--use-new-action-cache',
    '--no-cache-server',
    '-s',
    `GITHUB_TOKEN=${options.token}`,
    ...Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]),
    ...(await standInMappings(options.caller, world.serverUrl)),
  ];
  const [command, ...prefix] = options.launcher ?? [ACT];
  const child = spawn(command!, options.launcher ? [...prefix, ACT, ...args] : args, {
    cwd: options.caller,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ...(process.env.XDG_CACHE_HOME ? { XDG_CACHE_HOME: process.env.XDG_CACHE_HOME } : {}),
      ...options.processEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const take = (d: Buffer) => {
    output += d.toString();
    options.onOutput?.(d.toString());
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  const code = await new Promise<number | null>((done, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`act did not finish within ${options.timeoutMs ?? 300_000} ms:\n${output}`));
    }, options.timeoutMs ?? 300_000);
    child.on('close', (c) => {
      clearTimeout(timer);
      done(c);
    });
  });
  return { code, output };
}

/**
 * --local-repository for every actions/checkout, upload-artifact and download-artifact the workflows
 * name, pinned by SHA or (README's examples) by a major tag.
 */
async function standInMappings(caller: string, serverUrl: string): Promise<string[]> {
  const texts = [
    ...(await readWorkflows(join(caller, '.github', 'workflows'))),
    await readFile(join(ROOT, '.github/workflows/mesh-perf.yml'), 'utf8'),
    await readFile(join(ROOT, '.github/workflows/mesh-perf-publish.yml'), 'utf8'),
    await readFile(join(ROOT, '.github/workflows/mesh-perf-confirm.yml'), 'utf8'),
  ];
  const refs = new Set<string>();
  for (const text of texts)
    for (const m of text.matchAll(/uses:\s*(actions\/(checkout|upload-artifact|download-artifact)@([0-9a-f]{40}|v\d+))/g)) refs.add(m[1]!);
  // act matches the clone URL it would fetch (GITHUB_SERVER_URL/<owner>/<name>) and the ref.
  return [...refs].flatMap((ref) => [
    '--local-repository',
    `${serverUrl}/${ref}=${join(STAND_INS, ref.slice('actions/'.length, ref.indexOf('@')))}`,
  ]);
}

async function readWorkflows(dir: string): Promise<string[]> {
  const names = await readdir(dir);
  return Promise.all(names.map((n) => readFile(join(dir, n), 'utf8')));
}

/** The history branch of the caller's repository: run ids per suite, read with git. */
export function historyFiles(world: World, branch = 'gh-pages'): string[] {
  try {
    return git(world.dir, '--git-dir', world.callerBare, 'ls-tree', '-r', '--name-only', branch).split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

/** The files act's artifact server holds for a run. */
export async function artifactFiles(world: World, runId: number): Promise<string[]> {
  const dir = join(world.artifacts, String(runId));
  return (await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []))
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
}

/** The step lines of act's log for one job, for assertion messages. */
export function tail(output: string, lines = 80): string {
  return output.split('\n').slice(-lines).join('\n');
}
