// The post step: reads the cleanup list the main step kept in the action's state and removes
// what is left. Runs even when the main step was cancelled; only warns, never fails the job.
import * as core from '@actions/core';
import { CLEANUP_STATE, parseCleanupState, runCleanup } from './cleanup.ts';

export async function runPost(): Promise<void> {
  try {
    const items = parseCleanupState(core.getState(CLEANUP_STATE));
    if (items.length === 0) {
      core.info('mesh-perf: nothing left to clean up');
      return;
    }
    const report = await runCleanup(items);
    for (const done of report.removed) core.info(`removed ${done}`);
    for (const failed of report.failed) core.warning(`mesh-perf cleanup could not remove ${failed.description}: ${failed.error}`);
  } catch (error) {
    core.warning(`mesh-perf cleanup failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
