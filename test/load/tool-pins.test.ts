// The tests run the k6 the product pins: the Go build the test tools script installs must be the
// same version, or tests and product quietly drift apart (and a clean machine misses a binary).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACER_VERSION } from '../../src/load/pacer-params.ts';
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

test("the pacer's k6: one version in the pins, the Go module, the scripts and the engine", () => {
  const root = join(import.meta.dirname, '..', '..');
  const read = (path: string) => readFileSync(join(root, path), 'utf8');
  const goVersion = /const Version = "([^"]+)"/.exec(read('k6ext/module.go'))?.[1];
  assert.equal(goVersion, PACER_VERSION, 'k6ext/module.go Version and src/load/pacer-params.ts PACER_VERSION differ');
  const k6 = TOOL_PINS.k6!.version;
  const pin = TOOL_PINS['k6-pacer']!;
  assert.equal(pin.version, `${k6}-pacer.${PACER_VERSION}`, "the pin's version is k6's and the pacer's");
  assert.match(read('k6ext/go.mod'), new RegExp(`^require go\\.k6\\.io/k6 v${k6.replace(/\./g, '\\.')}$`, 'm'), 'k6ext builds another k6');
  assert.equal(
    /^PACER_K6_VERSION="([^"]+)"/m.exec(read('scripts/install-test-tools.sh'))?.[1],
    pin.version,
    'install-test-tools.sh caches another label',
  );
  assert.ok(pin.goInstall?.endsWith(`/cmd/k6@v${PACER_VERSION}`), `go install fallback ${pin.goInstall} builds another version`);
  assert.equal(pin.binary, 'k6');
  const toolchain = /^GO_TOOLCHAIN=(go[\d.]+)/m.exec(read('scripts/build-k6-pacer.sh'))?.[1];
  assert.ok(
    toolchain && read('.github/workflows/release-k6-pacer.yml').includes(`go-version: ${toolchain.slice(2)}`),
    'the release workflow builds with another Go',
  );
});
