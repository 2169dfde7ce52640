// How a run is brought up in a cluster and taken down: an ordered list of steps (index.ts), each
// in its own file saying what it creates and how that is undone, like kind's cluster creation
// (pkg/cluster/internal/create/actions). up runs them in order; down runs the undos in reverse,
// every one even when one fails (the problems are said together), so teardown reads as the same
// list backwards. The kind, kubeconfig and real-node paths differ only in their first steps.
import { parseDurationMs } from '../../../config/duration.ts';
import { EnvironmentError } from '../../../util/errors.ts';
import { ApiOutage } from '../api-outage.ts';
import type { TeardownOptions } from '../../types.ts';
import type { ClusterRun } from '../cluster-run.ts';

/** What a step's down gets: the teardown's options and deadline, and a way to go on past a failure. */
export interface Teardown {
  options: TeardownOptions;
  signal: AbortSignal;
  /** Runs one removal; a failure is noted (said with the others at the end) and the teardown goes on. */
  attempt(what: string, work: () => Promise<unknown>): Promise<void>;
}

/** How long a whole teardown may take; it ignores the run's own signal (a cancelled run is cleaned up too). */
export const TEARDOWN_TIMEOUT_MS = 5 * 60_000;

/**
 * How long the teardown of a cancelled run waits for an API server that is away. A cancelled
 * GitHub job gets SIGINT, SIGTERM 7.5 s later and SIGKILL 2.5 s after that: waiting out the whole
 * kubernetes.apiOutage would only be cut short by the kill, and the action's post step (or
 * `mesh-perf down`) removes what is left by the run's labels.
 */
export const CANCELLED_OUTAGE_MS = 5_000;

export interface ClusterStep {
  name: string;
  /** The progress phase this step opens ("Cluster", "Workloads"), when it starts one. */
  phase?: string;
  up(run: ClusterRun): Promise<void>;
  /** Undoes up; safe when up never ran or ran halfway. Runs with the teardown's own deadline. */
  down?(run: ClusterRun, teardown: Teardown): Promise<void>;
  /**
   * True when this step's down removes everything the later steps made (kind deleting its
   * cluster): their downs are then skipped.
   */
  removesAll?(run: ClusterRun): boolean;
}

export async function upSteps(steps: readonly ClusterStep[], run: ClusterRun): Promise<void> {
  for (const step of steps) {
    if (step.phase) run.context.log.phase(step.phase);
    await step.up(run);
  }
}

/** The steps' undos, last first; a step that removes everything cuts the list short. */
export async function downSteps(
  steps: readonly ClusterStep[],
  run: ClusterRun,
  options: TeardownOptions,
  signal: AbortSignal,
): Promise<void> {
  const cut = steps.findIndex((s) => s.removesAll?.(run));
  const undo = (cut >= 0 ? steps.slice(0, cut + 1) : steps).filter((s) => s.down).reverse();
  const problems: string[] = [];
  // An API server that is away as the teardown starts (the run may have stopped for that) is
  // waited for, for kubernetes.apiOutage, as the run's own calls were; a removal that could not
  // reach it runs again once it answers (each is idempotent: a delete by label, an uninstall).
  // Past that limit every removal fails at its first unreachable call, and `down` finishes later.
  // A cancelled run's teardown waits less (CANCELLED_OUTAGE_MS says why).
  const limitMs = parseDurationMs(run.k8s.apiOutage) ?? 60_000;
  const cancelled = run.context.signal.aborted && limitMs > CANCELLED_OUTAGE_MS;
  const outage = new ApiOutage({
    limitMs: cancelled ? CANCELLED_OUTAGE_MS : limitMs,
    ...(cancelled ? { limitSource: 'the wait of a cancelled run' } : {}),
    log: run.context.log,
    signal,
    server: run.access?.server ?? 'the cluster',
    duringLoad: false,
  });
  const noted = (what: string) => (error: unknown) => {
    problems.push(`${what}: ${(error as Error).message.split('\n')[0]}`);
  };
  const attempt = (what: string, work: () => Promise<unknown>) => outage.through('tearing down', work).then(() => undefined, noted(what));
  // A step's own down is not retried as a whole: its removals are (above), and one that failed
  // past the limit must not read as the server answering again when the step returns.
  for (const step of undo) await step.down!(run, { options, signal, attempt }).catch(noted(step.name));
  if (problems.length > 0)
    throw new EnvironmentError(
      `cleanup of run ${run.context.runId} was incomplete:\n  ${problems.join('\n  ')}\nRemove the rest with \`mesh-perf down --config FILE\`.`,
    );
}
