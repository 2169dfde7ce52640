// Finds the pinned CLI a mesh (or kind) needs: an explicit override (MESH_PERF_<NAME>, e.g.
// MESH_PERF_ISTIOCTL, for air-gapped machines and for our local tests' source-built istioctl),
// then the tool cache, then the pinned release download (SHA-256 verified). A version without a
// pinned checksum is never downloaded.
import { access, constants } from 'node:fs/promises';
import { TOOL_PINS } from '../../../tools/pins.ts';
import { cachedToolPath } from '../../../tools/cache.ts';
import { downloadVerified } from '../../../tools/download.ts';
import { EnvironmentError, UsageError } from '../../../util/errors.ts';
import type { Logger } from '../../../util/log.ts';

export type ToolName = 'istioctl' | 'linkerd' | 'kind';

export function overrideVariable(name: ToolName): string {
  return `MESH_PERF_${name.toUpperCase()}`;
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export async function resolveTool(name: ToolName, version: string, log: Logger, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const override = env[overrideVariable(name)];
  if (override) {
    if (!(await isExecutable(override)))
      throw new EnvironmentError(
        `${overrideVariable(name)}=${override} is not an executable file; unset it or point it at ${name} ${version}`,
      );
    return override;
  }
  const cached = cachedToolPath(name, version);
  if (await isExecutable(cached)) return cached;
  const pin = TOOL_PINS[name];
  if (!pin || pin.version !== version) {
    throw new UsageError(
      `${name} ${version} has no pinned SHA-256 in this release of mesh-perf (pinned: ${pin ? pin.version : 'none'}); use ${pin ? `version ${pin.version}` : 'a pinned version'}, or place a verified ${name} ${version} at ${cached} or set ${overrideVariable(name)}`,
    );
  }
  log.info(`downloading ${name} ${version} (SHA-256 verified) into ${cached}`);
  await downloadVerified(pin, cached);
  return cached;
}
