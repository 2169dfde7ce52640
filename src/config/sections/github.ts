// GitHub section: how the action reports on pull requests.
import { z } from 'zod';

export const githubSchema = z
  .strictObject({
    comment: z.enum(['off', 'on-failure', 'always']).default('always'),
    dashboardUrl: z.string().optional().describe('link to the trend dashboard shown in summaries'),
  })
  .default({ comment: 'always' });
