// Entry of the setup sub-action (setup/action.yml, a node24 action: bundled to dist/setup.js).
import { MODE_VARIABLE, run } from './github/main.ts';

await run({ ...process.env, [MODE_VARIABLE]: 'setup' });
