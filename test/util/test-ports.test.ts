// The tests' port reservations (test/support/ports.ts): a port another live test process holds
// is never handed out, a dead one's is taken over, and a process's reservations go when it exits.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { freePortRun } from '../support/ports.ts';

const DIR = join(tmpdir(), 'mesh-perf-test-ports');
const file = (port: number) => join(DIR, String(port));

/** freePortRun with Math.random fixed to pick `port` first and `other` after that. */
async function pick(port: number, other: number): Promise<number> {
  const random = Math.random;
  const span = 32_000 - 20_000 - 1;
  const draws = [(port - 20_000) / span, (other - 20_000) / span];
  Math.random = () => draws.shift() ?? random();
  try {
    return await freePortRun(1);
  } finally {
    Math.random = random;
  }
}

test('a port a live process reserved is skipped; one a dead process left is taken over; each file names its owner', async () => {
  mkdirSync(DIR, { recursive: true });
  const [held, free, stale] = [31_001, 31_002, 31_003];
  writeFileSync(file(held), '1'); // pid 1 is always alive
  try {
    assert.equal(await pick(held, free), free);
    assert.equal(readFileSync(file(free), 'utf8'), String(process.pid));
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(file(stale), dead.stdout);
    assert.equal(await pick(stale, free), stale, 'the dead owner’s port is taken over');
    assert.equal(readFileSync(file(stale), 'utf8'), String(process.pid));
    assert.notEqual(await pick(free, 31_004), free, 'a port this process holds is not handed out twice');
  } finally {
    rmSync(file(held), { force: true });
  }
});

test('a process’s reservations are removed when it exits', () => {
  const script = `import { freePortRun } from ${JSON.stringify(join(import.meta.dirname, '../support/ports.ts'))};
    const start = await freePortRun(3); console.log(start);`;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(child.status, 0, child.stderr);
  const start = Number(child.stdout.trim());
  assert.ok(start >= 20_000 && start < 32_000, child.stdout);
  for (const port of [start, start + 1, start + 2]) assert.equal(existsSync(file(port)), false, `reservation of ${port} left behind`);
});
