// Entry of the action's post step (bundled to dist/post.js): removes what the main step created
// and could not remove itself (cancelled job, timeout). Never fails the job.
import { runPost } from './github/post.ts';

await runPost();
