#!/usr/bin/env node
// Entry of the `mesh-perf` command. Ctrl-C once: stop the load, tear down, write partial
// results (verdict invalid). Ctrl-C twice: leave now.
import { defaultIo, main } from './cli/main.ts';

const controller = new AbortController();
let interrupts = 0;
let received: NodeJS.Signals | undefined;
// The shell convention: 128 + the signal's number (SIGINT 2 → 130, SIGTERM 15 → 143).
const exitCodeFor = (signal: NodeJS.Signals) => (signal === 'SIGTERM' ? 143 : 130);
const onSignal = (signal: NodeJS.Signals) => {
  interrupts += 1;
  received ??= signal;
  if (interrupts > 1) process.exit(exitCodeFor(signal));
  process.stderr.write(`\nmesh-perf: ${signal} received; stopping load and cleaning up (press Ctrl-C again to quit now)\n`);
  controller.abort();
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

const code = await main(process.argv.slice(2), defaultIo(controller.signal));
if (received) {
  // Cleaned up and partial results written; say how it ended, and leave even if a blocked read
  // (a FIFO given as --config with no writer) still holds the event loop.
  process.exit(exitCodeFor(received));
}
process.exitCode = code;
