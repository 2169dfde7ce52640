// scripts/check-package.mjs, the check the release workflow runs before `npm publish`: it passes this
// repository's package as it is, and catches each way a package could be wrong (a missing file the
// CLI reads, a test file packed, runtime dependencies, the wrong name or bin, no repository URL
// for provenance, a tag that is not the version, a real publish without a tag). test/integration/
// demo.test.ts installs the packed package and runs it; test/workflows/act-release.test.ts runs the
// workflow.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
// @ts-expect-error: plain .mjs build scripts without type declarations
import { packageProblems, REQUIRED_FILES } from '../../scripts/check-package.mjs';

const ROOT = resolve(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const cli = readFileSync(join(ROOT, 'dist/cli.js'), 'utf8');
const good = { files: [...REQUIRED_FILES, 'dist/chunks/chunk-1.js'], pkg, cli, tag: `v${pkg.version}`, dryRun: false };
const problems = (change: Partial<typeof good>) => packageProblems({ ...good, ...change }) as string[];

test("this repository's package.json and dist/cli.js pass, on its own version's tag", () => {
  assert.deepEqual(problems({}), []);
  // package.json's "files" names every folder a required file lives in.
  for (const file of REQUIRED_FILES as string[]) {
    const top = file.includes('/') ? `${file.split('/')[0]}/` : file;
    assert.ok(['package.json', 'README.md', 'LICENSE'].includes(top) || pkg.files.includes(top), `${file}: "files" lacks ${top}`);
  }
});

test('each way a package can be wrong is named', () => {
  assert.match(
    problems({ files: good.files.filter((f) => f !== 'k6/mesh-perf-lib.js') }).join('\n'),
    /k6\/mesh-perf-lib\.js is not in the package/,
  );
  assert.match(problems({ files: [...good.files, 'test/cli/usage.test.ts'] }).join('\n'), /test\/cli\/usage\.test\.ts is in the package/);
  assert.match(problems({ pkg: { ...pkg, dependencies: { yaml: '^2' } } }).join('\n'), /runtime dependencies \(yaml\)/);
  assert.match(problems({ pkg: { ...pkg, name: 'mesh-perf-action' } }).join('\n'), /name is "mesh-perf-action", expected "mesh-perf"/);
  assert.match(problems({ pkg: { ...pkg, bin: { other: 'dist/cli.js' } } }).join('\n'), /bin\["mesh-perf"\] is undefined/);
  assert.match(problems({ pkg: { ...pkg, repository: undefined } }).join('\n'), /repository\.url .* provenance/);
  assert.match(problems({ cli: cli.replace(/^#![^\n]*\n/, '') }).join('\n'), /does not start with "#!\/usr\/bin\/env node"/);
  assert.match(problems({ tag: 'v99.0.0' }).join('\n'), /the tag v99\.0\.0 is not the package's version/);
  assert.match(problems({ tag: undefined }).join('\n'), /a real publish runs only on a release tag/);
  assert.deepEqual(problems({ tag: undefined, dryRun: true }), []);
});
