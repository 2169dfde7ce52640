// Where the locally built control-plane binaries live (scripts/k8s/build.sh builds them once,
// keyed by the versions in scripts/k8s/versions.sh). A test run directly fails with the build
// command to run when one is missing; scripts/test.mjs skips such files first outside CI.
import { accessSync, constants, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cachedToolPath } from '../../../src/tools/cache.ts';
import { TOOL_PINS } from '../../../src/tools/pins.ts';

const VERSIONS_FILE = fileURLToPath(new URL('../../../scripts/k8s/versions.sh', import.meta.url));

export function buildVersions(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(VERSIONS_FILE, 'utf8').split('\n')) {
    const match = /^([A-Z_]+)=([^\s$"]+)\s*$/.exec(line);
    if (match) out[match[1]!] = match[2]!;
  }
  return out;
}

export interface K8sBinaries {
  etcd: string;
  kubeApiserver: string;
  kubeControllerManager: string;
  kubeScheduler: string;
  kwok: string;
  kubernetesVersion: string;
}

function executable(path: string, hint: string): string {
  try {
    accessSync(path, constants.X_OK);
    return path;
  } catch {
    throw new Error(`${path} is missing: run \`bash scripts/k8s/build.sh ${hint}\` first (builds and caches it once)`);
  }
}

export function k8sBinaries(): K8sBinaries {
  const v = buildVersions();
  const k8s = v.KUBERNETES_VERSION!;
  return {
    etcd: executable(process.env.MESH_PERF_ETCD ?? '/usr/bin/etcd', 'etcd'),
    kubeApiserver: executable(cachedToolPath('kube-apiserver', k8s), 'kube-apiserver'),
    kubeControllerManager: executable(cachedToolPath('kube-controller-manager', k8s), 'kube-controller-manager'),
    kubeScheduler: executable(cachedToolPath('kube-scheduler', k8s), 'kube-scheduler'),
    kwok: executable(cachedToolPath('kwok', v.KWOK_VERSION!), 'kwok'),
    kubernetesVersion: k8s,
  };
}

/** The istioctl built from the Go module proxy for tests (the product downloads a release). */
export function localIstioctl(): { path: string; version: string } {
  const v = buildVersions();
  return { path: executable(cachedToolPath('istioctl', v.ISTIO_VERSION!), 'istioctl'), version: v.ISTIO_VERSION! };
}

/** The k6 the load tests use: the product's pinned version, as scripts/install-test-tools.sh k6 builds it. */
export function localK6Dir(): string {
  const dir = join(cachedToolPath('k6', TOOL_PINS.k6!.version), '..');
  executable(join(dir, 'k6'), '(scripts/install-test-tools.sh k6)');
  return dir;
}

/** Gateway API CRDs module zip cached by build.sh (the product downloads the same pinned zip). */
export function gatewayApiZip(): string {
  const v = buildVersions();
  const path = join(cachedToolPath('gateway-api', v.GATEWAY_API_VERSION!), '..', 'gateway-api.zip');
  try {
    accessSync(path, constants.R_OK);
  } catch {
    throw new Error(`${path} is missing: run \`bash scripts/k8s/build.sh gateway-api\` first`);
  }
  return path;
}
