// Gateway API CRDs (standard channel), needed by Istio waypoints and by Linkerd. Taken from the
// pinned Go module zip of sigs.k8s.io/gateway-api (SHA-256 in src/tools/pins.ts), cached like
// the other tools, applied server-side with our labels so `down` removes exactly what we added.
// A cluster that already has them keeps its own.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { TOOL_PINS } from '../../../tools/pins.ts';
import { cachedToolPath } from '../../../tools/cache.ts';
import { describeFetchError } from '../../../util/fetch-error.ts';
import { EnvironmentError, UsageError } from '../../../util/errors.ts';
import { rawRequest } from '../access.ts';
import { parseManifests } from '../apply.ts';
import { COMPONENT } from '../ownership.ts';
import { readZipEntries } from './zip.ts';
import type { MeshContext } from './types.ts';

export const GATEWAY_CRD = 'gateways.gateway.networking.k8s.io';

export function gatewayApiZipPath(version: string): string {
  return join(dirname(cachedToolPath('gateway-api', version)), 'gateway-api.zip');
}

async function gatewayApiZip(version: string, context: MeshContext): Promise<Buffer> {
  const pin = TOOL_PINS['gateway-api'];
  const asset = pin?.assets.any;
  if (!pin || !asset || pin.version !== version) {
    throw new UsageError(
      `kubernetes.gatewayApi.version ${version} has no pinned SHA-256 (pinned: ${pin?.version ?? 'none'}); use ${pin?.version ?? 'the pinned version'}`,
    );
  }
  const path = gatewayApiZipPath(version);
  const verify = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex') === asset.sha256;
  const cached = await readFile(path).catch(() => undefined);
  if (cached && verify(cached)) return cached;
  context.log.info(`downloading Gateway API ${version} CRDs (SHA-256 verified)`);
  const response = await fetch(asset.url, { signal: AbortSignal.timeout(120_000) }).catch((error: unknown) => {
    throw new EnvironmentError(`could not download Gateway API ${version} from ${describeFetchError(asset.url, error)}`);
  });
  if (!response.ok) throw new EnvironmentError(`could not download Gateway API ${version} from ${asset.url}: HTTP ${response.status}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  if (!verify(bytes))
    throw new EnvironmentError(
      `Gateway API ${version}: SHA-256 of ${asset.url} does not match the pinned ${asset.sha256}; refusing to use it`,
    );
  await mkdir(dirname(path), { recursive: true });
  await writeFile(`${path}.partial`, bytes);
  await rename(`${path}.partial`, path);
  return bytes;
}

export function standardCrdDocuments(zip: Buffer, version: string): string[] {
  const prefix = `sigs.k8s.io/gateway-api@v${version}/config/crd/standard/`;
  const entries = readZipEntries(
    zip,
    (name) => name.startsWith(prefix) && name.endsWith('.yaml') && !name.slice(prefix.length).includes('/'),
  );
  if (entries.size === 0) throw new EnvironmentError(`the Gateway API ${version} module has no ${prefix}*.yaml`);
  return [...entries.keys()].sort().map((name) => entries.get(name)!.toString('utf8'));
}

export async function gatewayApiPresent(context: MeshContext): Promise<string | undefined> {
  const response = await rawRequest(context.access, `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${GATEWAY_CRD}`, {
    timeoutMs: 15_000,
  });
  if (response.status !== 200) return undefined;
  const crd = JSON.parse(response.body) as { metadata?: { annotations?: Record<string, string> } };
  return crd.metadata?.annotations?.['gateway.networking.k8s.io/bundle-version'] ?? 'unknown';
}

/** Installs the CRDs unless the cluster has them; returns the version in use and whether we installed it. */
export async function ensureGatewayApi(context: MeshContext): Promise<{ version: string; installed: boolean }> {
  const existing = await gatewayApiPresent(context);
  if (existing) return { version: existing, installed: false };
  const version = context.config.kubernetes.gatewayApi.version;
  const docs = standardCrdDocuments(await gatewayApiZip(version, context), version);
  const objects = docs.flatMap((doc, i) => parseManifests(doc, `gateway-api CRDs #${i}`));
  await context.applier.apply(objects, { labels: { ...context.ownerLabels, [COMPONENT]: 'gateway-api' }, signal: context.signal });
  return { version: `v${version}`, installed: true };
}
