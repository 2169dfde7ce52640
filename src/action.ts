// Entry of the action's main step (bundled to dist/action.js). Everything happens in run().
import { run } from './github/main.ts';

await run();
