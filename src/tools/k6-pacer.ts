// The pinned k6 with mesh-perf's pacer (k6ext/, TOOL_PINS['k6-pacer']): from the tool cache, else
// the pinned release asset (SHA-256 checked), else built from this repository's k6ext/ when mesh-perf
// runs from a checkout that has it (the action always does) and Go is installed, else `go install`
// of the module at its tag. Undefined when none works, with the reasons, so the caller can fall
// back to a stock k6 (load.pacer auto) or refuse (load.pacer on).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { messageOf } from '../util/errors.ts';
import type { Logger } from '../util/log.ts';
import { cachedToolPath } from './cache.ts';
import { downloadVerified, platformKey } from './download.ts';
import { TOOL_PINS } from './pins.ts';

const run = promisify(execFile);
export const PACER_PIN = TOOL_PINS['k6-pacer']!;
/** The binary is named k6, as k6 itself and every tool that looks for a `k6` process expects. */
export const pacerK6Path = () => cachedToolPath(PACER_PIN.name, PACER_PIN.version, PACER_PIN.binary);

/** linux-x64 → linux-amd64, as Go and the build script name platforms. */
const GO_PLATFORMS: Record<string, string> = { 'linux-x64': 'linux-amd64', 'linux-arm64': 'linux-arm64' };

export async function ensurePacerK6(
  log: Pick<Logger, 'info'>,
  usable: (path: string) => Promise<string | undefined>,
  findGo: () => Promise<string | undefined>,
): Promise<{ path: string; version: string; source: string } | { missing: string }> {
  const destination = pacerK6Path();
  const cached = await usable(destination);
  if (cached) return { path: destination, version: cached, source: "tool cache (mesh-perf's pacer)" };
  const reasons: string[] = [];
  if (PACER_PIN.assets[platformKey()]) {
    log.info(`k6 with mesh-perf's pacer (${PACER_PIN.version}) not found; downloading the pinned build (SHA-256 verified)`);
    try {
      await downloadVerified(PACER_PIN, destination);
      const version = await usable(destination);
      if (version) return { path: destination, version, source: "pinned build of mesh-perf's pacer (SHA-256 verified)" };
      reasons.push(`the download at ${destination} does not run`);
    } catch (error) {
      reasons.push(messageOf(error));
    }
  } else reasons.push(`no pinned build for ${platformKey()}`);
  const go = await findGo();
  let built: string;
  if (!go) return { missing: `${reasons.join('; ')}; and no Go to build it with` };
  const source = sourceCheckout();
  const goPlatform = GO_PLATFORMS[platformKey()];
  try {
    if (source && goPlatform) {
      log.info(`building k6 with mesh-perf's pacer from ${join(source, 'k6ext')} (a few minutes, once)`);
      await buildFromSource(source, goPlatform, destination);
      built = `go build of ${join(source, 'k6ext')}`;
    } else if (PACER_PIN.goInstall) {
      log.info(`building k6 with mesh-perf's pacer with \`go install ${PACER_PIN.goInstall}\` (a few minutes, once)`);
      await goInstall(go, PACER_PIN.goInstall, destination);
      built = `go install ${PACER_PIN.goInstall}`;
    } else return { missing: `${reasons.join('; ')}; and no source to build it from` };
  } catch (error) {
    return { missing: `${reasons.join('; ')}; building it failed: ${messageOf(error).split('\n').slice(-3).join(' ')}` };
  }
  const version = await usable(destination);
  return version ? { path: destination, version, source: built } : { missing: `the build at ${destination} does not run` };
}

/** The repository around this mesh-perf, when it has k6ext/ and the build script (a checkout, the action). */
function sourceCheckout(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 5; up++) {
    if (existsSync(join(dir, 'k6ext', 'go.mod')) && existsSync(join(dir, 'scripts', 'build-k6-pacer.sh'))) return dir;
    dir = dirname(dir);
  }
  return undefined;
}

async function buildFromSource(root: string, goPlatform: string, destination: string): Promise<void> {
  const staged = `${destination}.build`;
  await mkdir(dirname(destination), { recursive: true });
  try {
    await run('bash', [join(root, 'scripts', 'build-k6-pacer.sh'), goPlatform, staged], { timeout: 30 * 60_000, maxBuffer: 1 << 24 });
    await rename(staged, destination);
  } finally {
    await rm(staged, { force: true });
  }
}

async function goInstall(go: string, spec: string, destination: string): Promise<void> {
  const staging = `${dirname(destination)}.gobin`;
  await mkdir(staging, { recursive: true });
  try {
    await run(go, ['install', '-trimpath', spec], {
      env: { ...process.env, GOBIN: staging, CGO_ENABLED: '0', GOFLAGS: '-mod=readonly' },
      timeout: 30 * 60_000,
      maxBuffer: 1 << 24,
    });
    await rename(join(staging, 'k6'), destination);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
