#!/usr/bin/env node
// Entry of the `mesh-perf` command. Ctrl-C once: stop the load, tear down, write partial
// results (verdict invalid). Ctrl-C twice: leave now.
import { defaultIo, main } from './cli/main.ts';

const controller = new AbortController();
let interrupts = 0;
const onSignal = (signal: NodeJS.Signals) => {
  interrupts += 1;
  if (interrupts > 1) process.exit(130);
  process.stderr.write(`\nmesh-perf: ${signal} received; stopping load and cleaning up (press Ctrl-C again to quit now)\n`);
  controller.abort();
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

process.exitCode = await main(process.argv.slice(2), defaultIo(controller.signal));
