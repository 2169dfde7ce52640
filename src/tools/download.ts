// Downloads a pinned release asset, verifies its SHA-256 before anything is extracted or run,
// and installs the binary into the tool cache. A checksum mismatch is never "retried around".
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rename, rm, writeFile, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { ToolPin } from './pins.ts';
import { EnvironmentError } from '../util/errors.ts';
import { describeFetchError } from '../util/fetch-error.ts';

const run = promisify(execFile);

export function platformKey(): string {
  return `${process.platform}-${process.arch}`;
}

export async function downloadVerified(pin: ToolPin, destination: string, fetchImpl: typeof fetch = fetch): Promise<void> {
  const asset = pin.assets[platformKey()];
  if (!asset)
    throw new EnvironmentError(
      `${pin.name} ${pin.version}: no pinned download for ${platformKey()} (have: ${Object.keys(pin.assets).join(', ')})`,
    );
  let bytes: Buffer;
  try {
    const response = await fetchImpl(asset.url, { signal: AbortSignal.timeout(120_000) });
    if (!response.ok)
      throw new EnvironmentError(`${pin.name} ${pin.version}: download of ${asset.url} failed with HTTP ${response.status}`);
    bytes = Buffer.from(await response.arrayBuffer());
  } catch (error) {
    if (error instanceof EnvironmentError) throw error;
    throw new EnvironmentError(`${pin.name} ${pin.version}: download failed: ${describeFetchError(asset.url, error)}`);
  }
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (actual !== asset.sha256) {
    throw new EnvironmentError(
      `${pin.name} ${pin.version}: SHA-256 of ${asset.url} is ${actual}, expected ${asset.sha256}; refusing to use it`,
    );
  }
  const work = await mkdtemp(join(tmpdir(), `mesh-perf-${pin.name}-`));
  try {
    const archive = join(work, 'asset');
    await writeFile(archive, bytes);
    let binary = archive;
    if (asset.url.endsWith('.tar.gz') || asset.url.endsWith('.tgz')) {
      await run('tar', ['-xzf', archive, '-C', work]);
      binary = join(work, asset.member ?? pin.name);
    }
    await mkdir(dirname(destination), { recursive: true });
    const staged = `${destination}.partial`;
    await copyFile(binary, staged);
    await chmod(staged, 0o755);
    await rename(staged, destination);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
