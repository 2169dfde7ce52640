// A run's teardown of the meshes it installed (src/platform/kubernetes/steps/meshes.ts), against a
// real HTTP server on 127.0.0.1 playing the API server. Istio's cluster-scoped objects carry no
// label of ours: `mesh-perf down` finds Istio by istio-system's labels. In the fault tier (issue
// 51) a run whose API server had just restarted could not read istio-system at teardown; the read's
// error was taken for "not ours", istioctl uninstall was skipped, istio-system was deleted with the
// run's namespaces, and Istio's ClusterRoles and webhooks were left where `down` could not find
// them. Now the teardown waits out an API server that is not back yet (for kubernetes.apiOutage,
// as the run's own calls do), and past that a failed read is a failed removal: the cleanup says it
// was incomplete (exit 3) and istio-system stays for `down`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { Applier } from '../../../src/platform/kubernetes/apply.ts';
import { ClusterRun } from '../../../src/platform/kubernetes/cluster-run.ts';
import { meshes } from '../../../src/platform/kubernetes/steps/meshes.ts';
import { downSteps } from '../../../src/platform/kubernetes/steps/step.ts';
import { validateConfig } from '../../../src/config/validate.ts';
import { EnvironmentError } from '../../../src/util/errors.ts';
import { recordingLogger } from '../../support/k8s/harness.ts';
import { localApiAccess } from '../../support/k8s/local-api.ts';

/**
 * Tears down the meshes step of a run against a server that ends the first `dropped` reads of
 * istio-system without an answer (the API server restarting), then says it is absent.
 */
async function teardown(
  dropped: number,
  { apiOutage = '500ms', cancelled = false } = {},
): Promise<{ error?: Error; selectors: string[]; log: string[]; ms: number }> {
  const selectors: string[] = [];
  let reads = 0;
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    if (url.pathname === '/api/v1/namespaces/istio-system' && ++reads <= dropped) {
      request.socket.destroy();
      return;
    }
    if (url.pathname === '/api/v1/namespaces' && request.method === 'GET') {
      selectors.push(url.searchParams.get('labelSelector') ?? '');
      response.setHeader('content-type', 'application/json');
      response.end('{"items":[]}');
      return;
    }
    response.writeHead(404, { 'content-type': 'application/json' }).end('{"kind":"Status","code":404}');
  });
  try {
    const config = validateConfig({
      platform: 'kubeconfig',
      modes: [{ name: 'istio-ambient' }],
      load: { rate: 10 },
      kubernetes: { apiOutage },
    });
    const log = recordingLogger();
    const runSignal = new AbortController();
    if (cancelled) runSignal.abort();
    const run = new ClusterRun({ config, runId: 'r1', signal: runSignal.signal, log }, tmpdir(), {});
    run.access = await localApiAccess(server);
    run.applier = new Applier(run.access);
    run.created = true;
    const started = Date.now();
    const error = await downSteps([meshes], run, {}, new AbortController().signal).then(
      () => undefined,
      (e: Error) => e,
    );
    return { error, selectors, log: log.lines, ms: Date.now() - started };
  } finally {
    server.close();
  }
}

test("istio-system unreadable at teardown for longer than kubernetes.apiOutage: the cleanup is incomplete naming Istio's uninstall and the outage (exit 3), and istio-system is left for down", async () => {
  const { error, selectors } = await teardown(Infinity);
  assert.ok(error instanceof EnvironmentError, String(error));
  assert.equal(error.exitCode, 3);
  assert.match(
    error.message,
    /^cleanup of run r1 was incomplete:\n {2}Istio uninstall: the Kubernetes API server http:\/\/127\.0\.0\.1:\d+ did not answer for \d+ s, longer than kubernetes\.apiOutage \(500ms\), while tearing down: /,
  );
  assert.match(error.message, /mesh-perf down --config FILE/);
  // The teardown's message says what is left to down; the outage's own is not the run's stop.
  assert.doesNotMatch(error.message, /The run stops here|\.\./);
  // The run's mesh namespaces are deleted, istio-system left out of them.
  assert.equal(selectors.length, 1);
  assert.match(selectors[0]!, /mesh-perf\.dev\/run-id=r1/);
  assert.match(selectors[0]!, /,kubernetes\.io\/metadata\.name!=istio-system$/);
});

test('istio-system unreadable twice, then answering: the teardown waited for it, said so, and went on as usual', async () => {
  const { error, selectors, log } = await teardown(2);
  assert.equal(error, undefined);
  assert.match(log.join('\n'), /stopped answering while tearing down .*\(kubernetes\.apiOutage\)$/m);
  assert.match(log.join('\n'), /answers again/);
  assert.equal(selectors.length, 1);
  assert.doesNotMatch(selectors[0]!, /istio-system/);
});

test('istio-system absent (this run installed no Istio): nothing to uninstall, the mesh namespaces deleted by the run label alone', async () => {
  const { error, selectors } = await teardown(0);
  assert.equal(error, undefined);
  assert.equal(selectors.length, 1);
  assert.doesNotMatch(selectors[0]!, /istio-system/);
});

test('a cancelled run whose API server is away: its teardown waits 5 s, not kubernetes.apiOutage (a cancelled job is killed ~10 s after its SIGINT), and leaves the rest to down', async () => {
  const { error, log, ms } = await teardown(Infinity, { apiOutage: '60s', cancelled: true });
  assert.ok(error instanceof EnvironmentError, String(error));
  assert.match(error.message, /did not answer for \d+ s, longer than the wait of a cancelled run \(5s\), while tearing down/);
  assert.match(error.message, /mesh-perf down --config FILE/);
  assert.match(log.join('\n'), /retrying for up to 5s \(the wait of a cancelled run\)$/m);
  assert.ok(ms < 15_000, `the teardown took ${ms} ms`);
});
