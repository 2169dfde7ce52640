// The tests run the k6 the product pins: the Go build the test tools script installs must be the
// same version, or tests and product quietly drift apart (and a clean machine misses a binary).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TOOL_PINS } from '../../src/tools/pins.ts';

test('scripts/install-test-tools.sh builds the k6 version the product pins', () => {
  const script = readFileSync(join(import.meta.dirname, '..', '..', 'scripts', 'install-test-tools.sh'), 'utf8');
  const row = /"k6\|go\.k6\.io\/k6@v([^|]+)\|([^"]+)"/.exec(script);
  assert.ok(row, 'install-test-tools.sh has no k6 row');
  const pinned = TOOL_PINS.k6!.version;
  assert.equal(row[1], pinned, `the script builds k6 v${row[1]}, the product pins ${pinned}`);
  assert.equal(row[2], pinned, `the script caches k6 as ${row[2]}, the product pins ${pinned}`);
  assert.equal(TOOL_PINS.k6!.goInstall?.includes(`@v${pinned}`) ?? true, true, 'the go install fallback builds another version');
});
