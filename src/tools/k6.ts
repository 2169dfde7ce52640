// Finds a k6 that fits, or installs the pinned one: K6_PATH, then k6 on PATH (v1.x), then the
// tool cache, then the pinned release download (SHA-256 checked), then `go install` where Go is
// available and downloads are not. Otherwise exit 3 with instructions.
import { execFile } from 'node:child_process';
import { access, constants, mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { TOOL_PINS } from './pins.ts';
import { cachedToolPath } from './cache.ts';
import { downloadVerified } from './download.ts';
import { EnvironmentError, messageOf } from '../util/errors.ts';
import type { Logger } from '../util/log.ts';

const run = promisify(execFile);
const PIN = TOOL_PINS.k6!;
/** k6 v2 changed the summary data model; our handleSummary parsing is written for v1. */
const SUPPORTED_MAJOR = 1;

export async function k6Version(path: string): Promise<string> {
  const { stdout } = await run(path, ['version'], { timeout: 15_000 });
  const match = /v?(\d+\.\d+\.\d+)/.exec(stdout);
  if (!match) throw new EnvironmentError(`${path} version printed ${JSON.stringify(stdout.trim())}; expected "k6 v1.x.y"`);
  return match[1]!;
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

export async function ensureK6(log: Logger): Promise<K6Binary> {
  const fromEnv = process.env.K6_PATH;
  if (fromEnv) {
    const version = await usable(fromEnv);
    if (!version) throw new EnvironmentError(`K6_PATH=${fromEnv} is not a working k6 v${SUPPORTED_MAJOR}.x; unset it or point it at one`);
    return { path: fromEnv, version, source: 'K6_PATH' };
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
