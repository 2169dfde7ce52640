// History section: where past results live (a git branch or a directory) and how long they stay.
import { z } from 'zod';
import { describeValue, text } from '../bounded.ts';

export const historySchema = z
  .strictObject({
    store: text('history.store').optional().describe('git URL or path of the results store; a directory works for local use'),
    branch: text('history.branch', 255).default('gh-pages').describe('branch of the store that holds the runs and the dashboard'),
    keep: text('history.keep', 20)
      .regex(/^\d+(d|runs)$/, { error: (issue) => `expected "<N>d" (days) or "<N>runs", got ${describeValue(issue.input)}` })
      .optional()
      .describe('retention: "365d" or "1000runs"'),
    keepTimelines: text('history.keepTimelines', 20)
      .regex(/^(\d+(d|runs)|all|none)$/, {
        error: (issue) => `expected "<N>d", "<N>runs", "all" or "none", got ${describeValue(issue.input)}`,
      })
      .optional()
      .describe('per-second timelines stay in history this long (default "30d"); older runs keep their run-level figures'),
    publish: z
      .boolean()
      .default(false)
      .describe(
        "publish this run to the store when it ends, as `mesh-perf publish` does (the CLI needs history.store; the action defaults to the repository's own history branch)",
      ),
    adopt: z
      .boolean()
      .default(false)
      .describe(
        'publish into a branch/folder that already holds other files (e.g. a docs site on gh-pages); without it such a store is refused',
      ),
  })
  .default({ branch: 'gh-pages', publish: false, adopt: false })
  .describe('where past runs are kept (a git branch or a directory), for the regression gate and the dashboard');
