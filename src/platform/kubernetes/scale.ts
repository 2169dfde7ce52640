// Pod counts per load profile (load[].replicas): before a trial the mode's echo Deployment is
// scaled to the profile's count, and the trial starts only when the rollout is ready and the
// Service's EndpointSlices list exactly that many ready endpoints, none terminating: the point
// from which kube-proxy and the mesh's proxies are told to send traffic to every new pod (and
// none to removed ones).
import { setTimeout as sleep } from 'node:timers/promises';
import { formatDuration } from '../../config/duration.ts';
import { EnvironmentError } from '../../util/errors.ts';
import { rawRequest, type ClusterAccess } from './access.ts';
import { describeNotReady, rolloutTarget, waitReady } from './wait.ts';
import { ECHO_SERVICE } from './workloads.ts';

export const ECHO_DEPLOYMENT = 'echo';

interface SliceView {
  endpoints?: { conditions?: { ready?: boolean; serving?: boolean; terminating?: boolean } }[];
}

/** Ready, non-terminating endpoints over a Service's EndpointSlices. */
export function readyEndpoints(slices: readonly SliceView[]): { ready: number; other: number } {
  let ready = 0;
  let other = 0;
  for (const slice of slices) {
    for (const e of slice.endpoints ?? []) {
      if (e.conditions?.ready !== false && e.conditions?.terminating !== true) ready++;
      else other++;
    }
  }
  return { ready, other };
}

/** `field` names the config field the count came from, for messages ("load[3].replicas"). */
export async function scaleEcho(
  access: ClusterAccess,
  namespace: string,
  replicas: number,
  field: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const path = `/apis/apps/v1/namespaces/${namespace}/deployments/${ECHO_DEPLOYMENT}/scale`;
  const patched = await rawRequest(access, path, {
    method: 'PATCH',
    body: JSON.stringify({ spec: { replicas } }),
    contentType: 'application/merge-patch+json',
    timeoutMs: 15_000,
  });
  if (patched.status !== 200)
    throw new EnvironmentError(
      `could not scale Deployment ${ECHO_DEPLOYMENT} in namespace ${namespace} to ${replicas}: HTTP ${patched.status}: ${patched.body.slice(0, 200)}`,
    );
  const rollout = rolloutTarget('Deployment', namespace, ECHO_DEPLOYMENT, 'app=echo');
  try {
    await waitReady(
      access,
      {
        ...rollout,
        description: `Deployment ${ECHO_DEPLOYMENT} in namespace ${namespace} scaled to ${replicas} pods`,
        ready: (d) => rollout.ready(d) && (d.spec as { replicas?: number }).replicas === replicas,
      },
      timeoutMs,
      signal,
    );
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new EnvironmentError(`${field} ${replicas}: ${(error as Error).message}`);
  }
  const slices = `/apis/discovery.k8s.io/v1/namespaces/${namespace}/endpointslices?labelSelector=${encodeURIComponent(`kubernetes.io/service-name=${ECHO_SERVICE}`)}`;
  let last = { ready: 0, other: 0 };
  while (Date.now() < deadline) {
    if (signal?.aborted) throw new EnvironmentError(`cancelled while scaling ${namespace}/${ECHO_DEPLOYMENT}`);
    const response = await rawRequest(access, slices, { timeoutMs: 10_000 });
    if (response.status === 200) {
      last = readyEndpoints((JSON.parse(response.body) as { items: SliceView[] }).items);
      if (last.ready === replicas && last.other === 0) return;
    }
    await sleep(500);
  }
  throw new EnvironmentError(
    `${field} ${replicas}: Service ${ECHO_SERVICE} in namespace ${namespace} lists ${last.ready} ready endpoint${last.ready === 1 ? '' : 's'} (and ${last.other} not ready or terminating) after ${formatDuration(timeoutMs)}, expected ${replicas}.\n${await describeNotReady(access, namespace, 'app=echo')}`,
  );
}
