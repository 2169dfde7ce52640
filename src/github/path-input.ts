// Path inputs as a shell would read them. A runner passes `~/x` to an action verbatim (no shell
// in between), while actions/cache and users mean $HOME/x: resolved as is, `~` became a folder
// named "~" inside the workspace and a cache restored to $HOME never hit.
import { homedir } from 'node:os';
import { join } from 'node:path';

/** `~` and `~/…` under the home directory; everything else unchanged (`~user/…` is not expanded). */
export function expandHome(value: string, home: string = process.env.HOME || homedir()): string {
  if (value === '~') return home;
  if (value.startsWith('~/')) return join(home, value.slice(2));
  return value;
}
