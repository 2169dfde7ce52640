// The whole-job estimate in `mesh-perf plan`'s words: one sentence, the steps and the load in the
// order they run, each with its share, and where the step times were measured.
import type { JobEstimate } from '../plan/job-estimate.ts';
import { formatEstimate } from './preset-summary.ts';

/** Where docs/cli.md lists the step times and their sources. */
export const STEP_TIMES_DOC = 'docs/cli.md#what-a-whole-job-takes';

export function jobEstimateText(job: JobEstimate): string {
  const ranged = job.seconds.max > job.seconds.first;
  const total = `~${formatEstimate(job.seconds.first)}${ranged ? ` (up to ~${formatEstimate(job.seconds.max)} if load.repetitions auto runs to its budget)` : ''}`;
  const load = `load ~${formatEstimate(job.load.first)}${ranged ? ` to ~${formatEstimate(job.load.max)}` : ''}`;
  const parts = [...job.before.map(part), load, ...job.after.map(part)];
  if (job.before.length === 0 && job.after.length === 0)
    return `Whole job on ${job.platform}, estimated: ${total}, the load alone (each URL's connection check takes under a second).`;
  return `Whole job on ${job.platform}, estimated: ${total}: ${parts.join(', ')}; step times as measured on a 2-core VM (${STEP_TIMES_DOC}).`;
}

function part(step: JobEstimate['before'][number]): string {
  return `${step.label} ~${formatEstimate(step.seconds)}`;
}
