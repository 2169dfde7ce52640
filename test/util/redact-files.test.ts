// Files another program wrote into an output directory (kind's exported logs) are masked like
// every other output before they are uploaded: a registered secret and a URL credential in a text
// file are replaced in place, nested directories included; binary files and symlinks are removed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redactTree } from '../../src/util/redact-files.ts';
import { registerSecret } from '../../src/util/redact.ts';

test('redactTree masks credentials in every text file, removes what it cannot check, and leaves clean files alone', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mesh-perf-redact-files-'));
  try {
    const secret = 'kind-logs-secret-0123456789';
    registerSecret(secret);
    await mkdir(join(dir, 'node-1', 'pods'), { recursive: true });
    await writeFile(join(dir, 'node-1', 'kubelet.log'), `starting\nAuthorization: Bearer ${secret}\nok\n`);
    await writeFile(join(dir, 'node-1', 'pods', 'k6.log'), 'GET https://user:hunter2hunter2@store.example/x\n');
    await writeFile(join(dir, 'clean.txt'), 'nothing to hide\n');
    await writeFile(join(dir, 'core.bin'), Buffer.from([1, 2, 0, 3, ...Buffer.from(secret)]));
    await symlink('/etc/hostname', join(dir, 'outside'));

    const { redacted, removed } = await redactTree(dir);
    assert.deepEqual(redacted.map((p) => p.slice(dir.length + 1)).sort(), ['node-1/kubelet.log', 'node-1/pods/k6.log']);
    assert.deepEqual(removed.map((p) => p.slice(dir.length + 1)).sort(), ['core.bin', 'outside']);
    assert.equal(await readFile(join(dir, 'node-1', 'kubelet.log'), 'utf8'), 'starting\nAuthorization: Bearer ***\nok\n');
    assert.equal(await readFile(join(dir, 'node-1', 'pods', 'k6.log'), 'utf8'), 'GET https://***@store.example/x\n');
    assert.equal(await readFile(join(dir, 'clean.txt'), 'utf8'), 'nothing to hide\n');
    assert.deepEqual((await readdir(dir)).sort(), ['clean.txt', 'node-1']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
