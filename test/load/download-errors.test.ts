// A failed download names the URL and the cause, not just Node's "fetch failed".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { downloadVerified, platformKey } from '../../src/tools/download.ts';
import { describeFetchError } from '../../src/util/fetch-error.ts';
import { freePort } from '../../src/util/net.ts';
import type { ToolPin } from '../../src/tools/pins.ts';

test('connection refused: the message has the URL and ECONNREFUSED', async () => {
  const url = `http://127.0.0.1:${await freePort()}/k6.tar.gz`;
  const pin = { name: 'k6', version: '0.0.0', assets: { [platformKey()]: { url, sha256: '0'.repeat(64) } } } as unknown as ToolPin;
  await assert.rejects(downloadVerified(pin, '/tmp/never-written-k6'), (error: Error) => {
    assert.match(error.message, new RegExp(`k6 0\\.0\\.0: download failed: ${url.replace(/[.]/g, '\\.')}: .*ECONNREFUSED`));
    assert.doesNotMatch(error.message, /^fetch failed$/);
    return true;
  });
});

test('describeFetchError reads the cause chain and timeouts', () => {
  const refused = Object.assign(new TypeError('fetch failed'), {
    cause: Object.assign(new Error('getaddrinfo ENOTFOUND example.invalid'), { code: 'ENOTFOUND' }),
  });
  assert.equal(
    describeFetchError('https://example.invalid/x', refused),
    'https://example.invalid/x: getaddrinfo ENOTFOUND example.invalid',
  );
  const timeout = Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' });
  assert.equal(describeFetchError('https://h/x', timeout), 'https://h/x: timed out');
});
