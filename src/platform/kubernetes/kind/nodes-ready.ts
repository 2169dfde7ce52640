// After `kind create`: every node Ready and untainted before the run places anything. kind's
// `--wait` covers the control plane only; its workers join and turn Ready tens of seconds later
// (kindnetd starts on each). Seen on a real kind cluster here: a run whose workloads came at once
// found "0/3 nodes are available: 3 node(s) had untolerated taint(s)" (not-ready), and a cluster
// read while one worker was Ready would have been taken for a one-node cluster (echo server and
// client on the same node). So the run waits for them, bounded by kubernetes.readyTimeout.
import { setTimeout as sleep } from 'node:timers/promises';
import { EnvironmentError } from '../../../util/errors.ts';
import { type ClusterAccess, rawRequest } from '../access.ts';
import type { NodeView } from '../placement.ts';

/** Nodes not yet Ready, or still carrying a NoSchedule/NoExecute taint, with why. Pure. */
export function nodesNotReady(nodes: readonly NodeView[]): string[] {
  return nodes.flatMap((n) => {
    const ready = (n.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
    const taints = (n.spec?.taints ?? [])
      .filter((t) => t.effect !== 'PreferNoSchedule' && !/control-plane|master/.test(t.key))
      .map((t) => t.key);
    if (ready && taints.length === 0) return [];
    return [`${n.metadata.name} (${[...(ready ? [] : ['not Ready']), ...taints].join(', ')})`];
  });
}

export async function waitNodesReady(
  access: ClusterAccess,
  expected: number,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<{ seconds: number }> {
  const started = Date.now();
  let last = 'no answer from the API server';
  while (Date.now() - started < timeoutMs) {
    if (signal.aborted) throw new EnvironmentError('cancelled while waiting for the kind nodes to be Ready');
    const response = await rawRequest(access, '/api/v1/nodes', { timeoutMs: 10_000 }).catch((error: Error) => ({
      status: 0,
      body: error.message,
    }));
    if (response.status === 200) {
      const nodes = (JSON.parse(response.body) as { items: NodeView[] }).items;
      const waiting = nodesNotReady(nodes);
      if (nodes.length >= expected && waiting.length === 0) return { seconds: (Date.now() - started) / 1000 };
      last = `${nodes.length} of ${expected} nodes listed${waiting.length > 0 ? `; waiting for ${waiting.join(', ')}` : ''}`;
    } else last = `HTTP ${response.status}: ${response.body.slice(0, 200)}`;
    await sleep(1000);
  }
  throw new EnvironmentError(
    `the kind cluster's nodes were not all Ready within ${Math.round(timeoutMs / 1000)} s (kubernetes.readyTimeout): ${last}`,
  );
}
