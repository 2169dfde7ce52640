// Throttling and server errors from the API server are retried a bounded number of times:
// a real HTTP server on 127.0.0.1 answers 429 (with Retry-After) and 503 before succeeding,
// or keeps failing; the client makes exactly the expected number of requests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { type ClusterAccess, rawRequest } from '../../src/platform/kubernetes/access.ts';
import { localApiAccess } from '../support/k8s/local-api.ts';

async function withServer(answers: number[], fn: (access: ClusterAccess, requests: () => number) => Promise<void>) {
  let count = 0;
  const server = createServer((_req, res) => {
    const status = answers[Math.min(count, answers.length - 1)]!;
    count++;
    res.writeHead(status, status === 429 ? { 'retry-after': '0' } : {});
    res.end(status === 200 ? '{"ok":true}' : '{"message":"busy"}');
  });
  try {
    await fn(await localApiAccess(server), () => count);
  } finally {
    server.close();
  }
}

test('429 and 503 are retried until the server answers', async () => {
  await withServer([429, 503, 200], async (access, requests) => {
    const response = await rawRequest(access, '/api/v1/namespaces', { baseDelayMs: 5 });
    assert.equal(response.status, 200);
    assert.equal(requests(), 3);
  });
});

test('retries are bounded: the last error answer is returned after five attempts', async () => {
  await withServer([500], async (access, requests) => {
    const response = await rawRequest(access, '/version', { baseDelayMs: 5 });
    assert.equal(response.status, 500);
    assert.equal(requests(), 5);
  });
});

test('client errors are not retried', async () => {
  await withServer([404], async (access, requests) => {
    assert.equal((await rawRequest(access, '/x')).status, 404);
    assert.equal(requests(), 1);
  });
});

test('a caller that copes with a gap asks once: attempts 1 returns the first error answer', async () => {
  await withServer([503, 200], async (access, requests) => {
    assert.equal((await rawRequest(access, '/api/v1/nodes/n/proxy/metrics/resource', { attempts: 1 })).status, 503);
    assert.equal(requests(), 1);
  });
});
