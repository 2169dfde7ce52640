// The engine's scripts build their options (every threshold that declares a sub-metric) only in
// the init context k6 reads them from, __VU 0: a VU that built them too kept its own copy for the
// whole run, live heap Go's collector marks every cycle (k6/mesh-perf-lib.js, optionsForInit;
// bench/harness-fidelity's ablation). With real k6: a probe beside the engine's script re-exports its options,
// and every VU says what it holds; the run's summary still carries the sub-metrics k6 created
// from the options of __VU 0.

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { validateConfig } from '../../src/config/validate.ts';
import { buildInvocation } from '../../src/load/engine.ts';
import { parseSummary } from '../../src/load/k6-summary.ts';
import { LocalK6Runner } from '../../src/load/local-runner.ts';
import type { ModeTarget } from '../../src/load/types.ts';
import { buildPlan } from '../../src/plan/plan.ts';
import { ensureK6 } from '../../src/tools/k6.ts';
import { silentLogger } from '../../src/util/log.ts';

const PROBE = 'probe.js';

/** The engine's script as its entry's default, every VU logging the options it holds first. */
function probe(entry: string, callScript: boolean): string {
  return `import script, { options } from './${entry}';
export { options, handleSummary } from './${entry}';
let said = false;
export default function () {
  if (!said) {
    said = true;
    const thresholds = options === undefined ? 'none' : Object.keys(options.thresholds || {}).length;
    console.log('mesh-perf-probe vu=' + __VU + ' thresholds=' + thresholds);
  }
  ${callScript ? 'script();' : ''}
}
`;
}

async function probeRun(load: Record<string, unknown>, target: ModeTarget, callScript: boolean) {
  const mode = target.grpc ? { name: 'm', grpc: target.grpc } : { name: 'm', url: target.url };
  const trial = buildPlan(validateConfig({ platform: 'endpoints', modes: [mode], load }), 1).trials[0]!;
  const invocation = buildInvocation(trial, target, process.cwd());
  invocation.files[PROBE] = probe(invocation.entry, callScript);
  invocation.entry = PROBE;
  const k6 = await ensureK6(silentLogger);
  const outcome = await new LocalK6Runner(k6.path).run(invocation, () => {}, new AbortController().signal);
  assert.equal(outcome.exitCode, 0, outcome.stderrTail);
  const said = [...outcome.stderrTail.matchAll(/mesh-perf-probe vu=(\d+) thresholds=(\w+)/g)].map((m) => ({ vu: m[1], thresholds: m[2] }));
  assert.ok(said.length >= 2, `the VUs said nothing:\n${outcome.stderrTail}`);
  return { said, summary: outcome.summary };
}

test('HTTP: no VU builds or keeps the options; the sub-metrics come from those of __VU 0', { timeout: 60_000 }, async () => {
  const server = createServer((_req, res) => res.end('x'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const run = await probeRun(
      { rate: 20, duration: '2s', warmup: '1s', repetitions: 1 },
      { mode: 'm', url, env: {}, description: '' },
      true,
    );
    for (const { vu, thresholds } of run.said) assert.equal(thresholds, 'none', `VU ${vu} holds ${thresholds} thresholds`);
    assert.ok(run.summary, 'no summary');
    const m = parseSummary(run.summary);
    assert.ok(m.requests > 0 && m.latencyMs && m.statusCounts['200'] === m.requests, JSON.stringify(m.statusCounts));
    assert.ok(m.timeline.length >= 2, `timeline of ${m.timeline.length} buckets`);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

test('gRPC: no VU builds or keeps the options', { timeout: 60_000 }, async () => {
  // The VUs only say what they hold: no call is made, so no server is needed.
  const run = await probeRun(
    { rate: 20, duration: '1s', warmup: '0s', repetitions: 1, protocol: 'grpc' },
    { mode: 'm', grpc: '127.0.0.1:9', env: {}, description: '' },
    false,
  );
  for (const { vu, thresholds } of run.said) assert.equal(thresholds, 'none', `VU ${vu} holds ${thresholds} thresholds`);
});
