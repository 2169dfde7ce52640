// The seam between the Kubernetes platform and one mesh: install once per cluster, label or
// annotate a mode's namespace, finish enrolment after the namespace exists (waypoints), report
// the version, and remove only what this tool installed.
import type { Config } from '../../../config/validate.ts';
import type { Logger } from '../../../util/log.ts';
import type { ClusterAccess } from '../access.ts';
import type { Applier } from '../apply.ts';
import type { ClusterFlags } from './commands.ts';

export interface MeshContext {
  access: ClusterAccess;
  applier: Applier;
  config: Config;
  /** --kubeconfig/--context for the mesh CLIs. */
  flags: ClusterFlags;
  log: Logger;
  signal: AbortSignal;
  /** managed-by, suite and run id labels put on everything created. */
  ownerLabels: Record<string, string>;
  readyTimeoutMs: number;
  env?: NodeJS.ProcessEnv;
}

export interface MeshInstallation {
  mesh: 'istio' | 'linkerd';
  version: string;
  /** False when the cluster already ran this mesh: we then never uninstall it. */
  installedByUs: boolean;
  namespace: string;
  details: Record<string, unknown>;
}

export interface MeshNamespaceSetup {
  labels: Record<string, string>;
  annotations: Record<string, string>;
}
