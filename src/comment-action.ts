// Entry of the comment sub-action (comment/action.yml, a node24 action: bundled to dist/comment.js).
import { MODE_VARIABLE, run } from './github/main.ts';

await run({ ...process.env, [MODE_VARIABLE]: 'comment' });
