// GitHub section: how the action reports on pull requests.
import { z } from 'zod';
import { text } from '../bounded.ts';

export const githubSchema = z
  .strictObject({
    comment: z.enum(['off', 'on-failure', 'always']).default('always'),
    dashboardUrl: text('github.dashboardUrl').optional().describe('link to the trend dashboard shown in summaries'),
  })
  .default({ comment: 'always' });
