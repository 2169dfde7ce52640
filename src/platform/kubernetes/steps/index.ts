// A run in a cluster, as an ordered list of steps (step.ts runs them; teardown is the list
// backwards). The kind platform puts its cluster's creation before them (kind/cluster-step.ts).
import { checkCluster } from './check-cluster.ts';
import { clients } from './clients.ts';
import { clusterObjects } from './cluster-objects.ts';
import { ingressRoutes } from './ingress-routes.ts';
import { meshes } from './meshes.ts';
import { namespaces } from './namespaces.ts';
import { runnerMtlsExceptions } from './runner-mtls.ts';
import { servers } from './servers.ts';
import type { ClusterStep } from './step.ts';
import { waypoints } from './waypoints.ts';

export const CLUSTER_STEPS: readonly ClusterStep[] = [
  checkCluster,
  clusterObjects,
  meshes,
  namespaces,
  runnerMtlsExceptions,
  ingressRoutes,
  clients,
  waypoints,
  servers,
];
