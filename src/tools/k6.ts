// Finds a k6 that fits, or installs the pinned one: K6_PATH, then k6 on PATH (v1.x), then the
// tool cache, then the pinned release download (SHA-256 checked), then `go install` where Go is
// available and downloads are not. Otherwise exit 3 with instructions.
import { execFile } from 'node:child_process';
import { access, constants, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { TOOL_PINS } from './pins.ts';
import { cachedToolPath } from './cache.ts';
import { downloadVerified } from './download.ts';
import { ensurePacerK6 } from './k6-pacer.ts';
import { EnvironmentError, messageOf } from '../util/errors.ts';
import type { Logger } from '../util/log.ts';

const run = promisify(execFile);
const PIN = TOOL_PINS.k6!;
/** k6 v2 changed the summary data model; our handleSummary parsing is written for v1. */
const SUPPORTED_MAJOR = 1;

/** The JS module of mesh-perf's pacer extension (k6ext/), as `k6 version` lists it. */
export const PACER_MODULE = 'k6/x/meshperf';

export async function k6Version(path: string): Promise<string> {
  return (await k6Build(path)).version;
}

/**
 * The pacer's version in a k6 whose `k6 version` lists it, else undefined: `k6 inspect` of a
 * two-line script that puts the module's exported version into the options it prints (init
 * context only, ~50 ms). Automatic extension resolution is off: k6 would otherwise try to fetch
 * a binary with the module from Grafana's build service.
 */
export async function pacerVersion(path: string): Promise<string | undefined> {
  if (!(await k6Build(path)).jsModules.includes(PACER_MODULE)) return undefined;
  const dir = await mkdtemp(join(tmpdir(), 'mesh-perf-pacer-'));
  try {
    const probe = join(dir, 'probe.js');
    await writeFile(probe, PACER_PROBE);
    const { stdout } = await run(path, ['inspect', probe], { timeout: 15_000, env: { ...process.env, ...K6_ENV } });
    return parsePacerProbe(stdout, `the k6 at ${path}`);
  } catch (error) {
    if (error instanceof EnvironmentError) throw error;
    throw new EnvironmentError(
      `the k6 at ${path} lists ${PACER_MODULE}, but a script importing it could not be inspected: ${messageOf(error)}`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A script whose options (as `k6 inspect` prints them) carry the pacer's exported version. */
export const PACER_PROBE = `import pacer from '${PACER_MODULE}';\nexport const options = { tags: { pacer: String(pacer.version) } };\nexport default function () {}\n`;

/** The pacer's version from `k6 inspect` of PACER_PROBE. */
export function parsePacerProbe(stdout: string, where: string): string {
  let version: string | undefined;
  try {
    version = (JSON.parse(stdout) as { tags?: { pacer?: string } }).tags?.pacer;
  } catch {
    // not JSON: said below
  }
  if (!version)
    throw new EnvironmentError(`${where} lists ${PACER_MODULE}, but \`k6 inspect\` of a script importing it printed no version`);
  return version;
}

/**
 * The environment every k6 mesh-perf starts runs with: no usage report, and no automatic extension
 * resolution (k6 ≥ 1.0 would fetch a binary from Grafana's build service for a script importing
 * an extension it lacks; mesh-perf chooses its k6 itself).
 */
export const K6_ENV: Readonly<Record<string, string>> = { K6_NO_USAGE_REPORT: 'true', K6_AUTO_EXTENSION_RESOLUTION: 'false' };

/** What `k6 version` says about a k6: its version and the JS modules of the extensions built in. */
export async function k6Build(path: string): Promise<{ version: string; jsModules: string[] }> {
  const { stdout } = await run(path, ['version'], { timeout: 15_000 });
  return parseK6Version(stdout, path);
}

/**
 * `k6 v1.4.2 (go1.26.8, linux/amd64)`, then for a custom build `Extensions:` and one line per
 * extension, `  <go module> <version>, <js module> [js]` (k6's cmd/version.go).
 */
export function parseK6Version(stdout: string, where: string): { version: string; jsModules: string[] } {
  const match = /v?(\d+\.\d+\.\d+)/.exec(stdout);
  if (!match) throw new EnvironmentError(`${where} version printed ${JSON.stringify(stdout.trim())}; expected "k6 v1.x.y"`);
  const jsModules = [...stdout.matchAll(/,\s*(k6\/x\/\S+)\s+\[js\]/g)].map((m) => m[1]!);
  return { version: match[1]!, jsModules };
}

async function usable(path: string): Promise<string | undefined> {
  try {
    const version = await k6Version(path);
    return Number(version.split('.')[0]) === SUPPORTED_MAJOR ? version : undefined;
  } catch {
    return undefined;
  }
}

async function onPath(name: string): Promise<string | undefined> {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this PATH entry
    }
  }
  return undefined;
}

/** A k6 found or installed, and where it came from (recorded in results: run.provenance.k6). */
export interface K6Binary {
  path: string;
  version: string;
  source: string;
}

/**
 * The k6 mesh-perf runs: K6_PATH when set; else the pinned k6 with mesh-perf's pacer (k6-pacer.ts:
 * cache, verified download, or a build from k6ext/); else a stock k6 (on PATH, cached, the pinned
 * release, or `go install`), on which the open-model HTTP profiles run k6's own executor
 * (load/pacer-choice.ts says so). `pacer: false` skips the pacer's k6 (the benches' plain k6).
 */
export async function ensureK6(log: Logger, options: { pacer?: boolean } = {}): Promise<K6Binary> {
  const fromEnv = process.env.K6_PATH;
  if (fromEnv) {
    const version = await usable(fromEnv);
    if (!version) throw new EnvironmentError(`K6_PATH=${fromEnv} is not a working k6 v${SUPPORTED_MAJOR}.x; unset it or point it at one`);
    return { path: fromEnv, version, source: 'K6_PATH' };
  }
  if (options.pacer !== false) {
    const paced = await ensurePacerK6(log, usable, () => onPath('go'));
    if ('path' in paced) return paced;
    log.info(`k6 with mesh-perf's pacer is not available (${paced.missing}); using a stock k6`);
  }
  const pathK6 = await onPath('k6');
  const pathVersion = pathK6 && (await usable(pathK6));
  if (pathK6 && pathVersion) return { path: pathK6, version: pathVersion, source: 'PATH' };

  const cached = cachedToolPath('k6', PIN.version);
  const cachedVersion = await usable(cached);
  if (cachedVersion) return { path: cached, version: cachedVersion, source: 'tool cache' };

  log.info(`k6 ${PIN.version} not found; downloading the pinned release (SHA-256 verified)`);
  let downloadError: string;
  try {
    await downloadVerified(PIN, cached);
    return { path: cached, version: PIN.version, source: 'pinned release download (SHA-256 verified)' };
  } catch (error) {
    downloadError = messageOf(error);
  }
  const go = await onPath('go');
  if (go && PIN.goInstall) {
    log.info(`download failed (${downloadError}); building k6 with \`go install ${PIN.goInstall}\` (about 2 minutes, once)`);
    await goInstall(go, PIN.goInstall, cached);
    return { path: cached, version: PIN.version, source: `go install ${PIN.goInstall}` };
  }
  throw new EnvironmentError(
    `k6 is not installed and could not be fetched: ${downloadError}. Install k6 v${PIN.version} (https://grafana.com/docs/k6/latest/set-up/install-k6/) and put it on PATH, or set K6_PATH.`,
  );
}

async function goInstall(go: string, spec: string, destination: string): Promise<void> {
  const staging = `${dirname(destination)}.build`;
  await mkdir(staging, { recursive: true });
  try {
    await run(go, ['install', spec], {
      env: { ...process.env, GOBIN: staging, GOFLAGS: '-mod=mod' },
      timeout: 20 * 60_000,
      maxBuffer: 1 << 24,
    });
    await mkdir(dirname(destination), { recursive: true });
    await rename(join(staging, 'k6'), destination);
  } catch (error) {
    throw new EnvironmentError(`building k6 with \`go install ${spec}\` failed: ${messageOf(error).split('\n').slice(-5).join(' ')}`);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
