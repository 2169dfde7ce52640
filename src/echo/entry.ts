// Locates the echo/proxy process entry: src/echo/main.ts (run through tsx) when mesh-perf runs
// from source, else dist/echo.js. In the bundle the calling code may sit in dist/ or in
// dist/chunks/, so look beside it and one level up.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EnvironmentError } from '../util/errors.ts';

export function echoCommand(): { command: string; args: string[] } {
  if (import.meta.url.endsWith('.ts')) {
    return {
      command: process.execPath,
      args: ['--import', import.meta.resolve('tsx'), fileURLToPath(new URL('./main.ts', import.meta.url))],
    };
  }
  for (const relative of ['./echo.js', '../echo.js']) {
    const entry = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(entry)) return { command: process.execPath, args: [entry] };
  }
  throw new EnvironmentError(`the echo server (dist/echo.js) is missing next to ${fileURLToPath(import.meta.url)}; reinstall mesh-perf`);
}
