// Locates the echo/proxy process entry: dist/echo.js next to the bundle, or src/echo/main.ts
// (run through tsx) when mesh-perf itself runs from source.
import { fileURLToPath } from 'node:url';

export function echoCommand(): { command: string; args: string[] } {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = fileURLToPath(new URL(fromSource ? './main.ts' : './echo.js', import.meta.url));
  return { command: process.execPath, args: fromSource ? ['--import', import.meta.resolve('tsx'), entry] : [entry] };
}
