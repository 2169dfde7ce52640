// GitHub section: how the action reports on pull requests.
import { z } from 'zod';
import { text } from '../bounded.ts';

export const githubSchema = z
  .strictObject({
    comment: z
      .enum(['off', 'on-failure', 'always'])
      .default('always')
      .describe('the sticky PR comment: always, on-failure (and to update an earlier failure in place) or off'),
    dashboardUrl: text('github.dashboardUrl').optional().describe('link to the trend dashboard shown in summaries'),
  })
  .default({ comment: 'always' })
  .describe('how the action reports on pull requests');
