// Release hygiene: the license and the bundled packages' notices, the check that dist/ and schema/
// are what the sources build to, Dependabot for the SHA pins, and scripts/release.mjs run for real
// against a throwaway git repository (tags vX.Y.Z, moves vX, rewrites the self-references).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { parse } from 'yaml';
import { withTempDir } from '../support/cli.ts';
// @ts-expect-error: plain .mjs build scripts without type declarations
import { bundledPackageRoots, packageRootOf, thirdPartyNotices } from '../../scripts/third-party-notices.mjs';
// @ts-expect-error: plain .mjs build scripts without type declarations
import { release, releaseChangelog, rewriteSelfReferences } from '../../scripts/release.mjs';

const ROOT = resolve(import.meta.dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

test('LICENSE is the full Apache License 2.0, as package.json declares', () => {
  const license = read('LICENSE');
  assert.equal(JSON.parse(read('package.json')).license, 'Apache-2.0');
  for (const part of [
    'Apache License',
    'Version 2.0, January 2004',
    'TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION',
    '9. Accepting Warranty or Additional Liability.',
    'END OF TERMS AND CONDITIONS',
  ]) {
    assert.ok(license.includes(part), `LICENSE lacks "${part}"`);
  }
});

test('third-party notices list each bundled package with its license text', { timeout: 60_000 }, async () => {
  assert.equal(packageRootOf('node_modules/@actions/core/lib/core.js'), 'node_modules/@actions/core');
  assert.equal(packageRootOf('node_modules/a/node_modules/yaml/dist/index.js'), 'node_modules/a/node_modules/yaml');
  assert.equal(packageRootOf('src/cli.ts'), undefined);
  await withTempDir(async (dir) => {
    const entry = join(dir, 'entry.ts');
    writeFileSync(
      entry,
      "import { parse } from 'yaml';\nimport { z } from 'zod';\nimport * as core from '@actions/core';\nconsole.log(parse('a: 1'), z.string(), core.getInput);\n",
    );
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      platform: 'node',
      format: 'esm',
      metafile: true,
      absWorkingDir: ROOT,
      nodePaths: [join(ROOT, 'node_modules')],
      logLevel: 'silent',
    });
    const roots = bundledPackageRoots(result.metafile, ['node_modules/chart.js']) as string[];
    for (const name of ['yaml', 'zod', '@actions/core', 'chart.js'])
      assert.ok(
        roots.some((r) => r.endsWith(`node_modules/${name}`)),
        `${name} in ${roots.join(', ')}`,
      );
    const notices = (await thirdPartyNotices(ROOT, roots)) as string;
    assert.match(notices, /^- yaml \d+\.\d+\.\d+ \(ISC\)$/m);
    assert.match(notices, /^- zod \d+\.\d+\.\d+ \(MIT\)$/m);
    assert.ok(notices.includes(read('node_modules/zod/LICENSE').trim()), "zod's license text is reproduced");
    assert.ok(notices.includes(read('node_modules/yaml/LICENSE').trim()), "yaml's license text is reproduced");
  });
});

test('the build writes dist/THIRD-PARTY-LICENSES.txt from what it bundled', () => {
  const script = read('scripts/build.mjs');
  assert.match(script, /metafile: true/);
  assert.match(script, /THIRD-PARTY-LICENSES\.txt/);
});

test("CI's check-dist compares dist/, schema/ and the generated docs (docs/, README.md's workflow examples)", () => {
  const ci = parse(read('.github/workflows/ci.yml')) as { jobs: Record<string, { steps: { id?: string; run?: string }[] }> };
  const diff = ci.jobs['check-dist']!.steps.find((s) => s.id === 'diff')!.run!;
  assert.match(diff, /git status --porcelain -- dist schema docs README\.md/);
});

test('Dependabot keeps the SHA pins and npm dependencies fresh', () => {
  const config = parse(read('.github/dependabot.yml')) as {
    version: number;
    updates: { 'package-ecosystem': string; directory?: string; directories?: string[] }[];
  };
  assert.equal(config.version, 2);
  const actions = config.updates.find((u) => u['package-ecosystem'] === 'github-actions');
  assert.ok(actions, 'github-actions updates');
  assert.deepEqual([...actions.directories!].sort(), ['/', '/.github/workflows', '/comment', '/setup', '/workflows']);
  assert.ok(
    config.updates.some((u) => u['package-ecosystem'] === 'npm' && u.directory === '/'),
    'npm updates',
  );
});

test("CHANGELOG, SECURITY and the docs' runner and release notes are there", () => {
  assert.match(read('CHANGELOG.md'), /^## Unreleased$/m);
  assert.match(read('SECURITY.md'), /Report a vulnerability/);
  const page = read('docs/runners-releases.md');
  for (const part of ['2.327.1', 'scripts/release.mjs', 'Dependabot', 'SECURITY.md'])
    assert.ok(page.includes(part), `docs/runners-releases.md lacks ${part}`);
  assert.ok(read('README.md').includes('THIRD-PARTY-LICENSES.txt'), "README's license section names the bundled notices");
});

test('self-references move to the new major and, when asked, to the real repository', () => {
  const text =
    'uses: org/mesh-perf-action@v1\nuses: org/mesh-perf-action/setup@v1\nuses: org/mesh-perf-action/.github/workflows/mesh-perf.yml@v1.2.0\nuses: actions/checkout@v7\n';
  assert.equal(
    rewriteSelfReferences(text, { major: 2 }),
    'uses: org/mesh-perf-action@v2\nuses: org/mesh-perf-action/setup@v2\nuses: org/mesh-perf-action/.github/workflows/mesh-perf.yml@v2\nuses: actions/checkout@v7\n',
  );
  assert.match(rewriteSelfReferences(text, { major: 1, repo: 'acme/mesh-perf-action' }), /^uses: acme\/mesh-perf-action\/setup@v1$/m);
  assert.equal(
    releaseChangelog('# C\n\n## Unreleased\n\n- x\n', '1.1.0', '2026-11-23'),
    '# C\n\n## Unreleased\n\n## 1.1.0 - 2026-11-23\n\n- x\n',
  );
});

test('release tags vX.Y.Z, moves vX, bumps package.json and refuses to go backwards', { timeout: 60_000 }, async () => {
  await withTempDir(async (dir) => {
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd: dir,
        encoding: 'utf8',
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 't',
          GIT_AUTHOR_EMAIL: 't@example.invalid',
          GIT_COMMITTER_NAME: 't',
          GIT_COMMITTER_EMAIL: 't@example.invalid',
        },
      }).trim();
    git('init', '--quiet', '-b', 'main');
    mkdirSync(join(dir, 'workflows'));
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify(
        { name: 'mesh-perf', version: '0.1.0', repository: { type: 'git', url: 'git+https://github.com/org/mesh-perf-action.git' } },
        null,
        2,
      ),
    );
    writeFileSync(join(dir, 'README.md'), '- uses: org/mesh-perf-action@v1\n');
    writeFileSync(join(dir, 'workflows', 'daily.yml'), 'uses: org/mesh-perf-action/.github/workflows/mesh-perf.yml@v1\n');
    writeFileSync(join(dir, 'CHANGELOG.md'), '# Changelog\n\n## Unreleased\n\n- first\n');
    git('add', '.');
    git('-c', 'commit.gpgsign=false', 'commit', '--quiet', '-m', 'init');
    const env = { ...process.env };
    Object.assign(process.env, {
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.invalid',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.invalid',
    });
    try {
      const first = release(['1.0.0', '--root', dir, '--skip-build', '--repo', 'acme/mesh-perf-action'], new Date('2026-11-23T00:00:00Z'));
      assert.equal(git('rev-parse', 'v1.0.0^{commit}'), first.commit);
      assert.equal(git('rev-parse', 'v1^{commit}'), first.commit);
      assert.equal(git('cat-file', '-t', 'v1.0.0'), 'tag', 'vX.Y.Z is annotated');
      const released = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      assert.equal(released.version, '1.0.0');
      // npm checks the package's provenance against this repository.
      assert.equal(released.repository.url, 'git+https://github.com/acme/mesh-perf-action.git');
      assert.equal(readFileSync(join(dir, 'README.md'), 'utf8'), '- uses: acme/mesh-perf-action@v1\n');
      assert.match(readFileSync(join(dir, 'CHANGELOG.md'), 'utf8'), /## Unreleased\n\n## 1\.0\.0 - 2026-11-23\n\n- first/);
      assert.deepEqual(first.pushCommands, ['git push origin main v1.0.0', 'git push --force origin v1']);

      writeFileSync(
        join(dir, 'CHANGELOG.md'),
        readFileSync(join(dir, 'CHANGELOG.md'), 'utf8').replace('## Unreleased\n', '## Unreleased\n\n- second\n'),
      );
      git('-c', 'commit.gpgsign=false', 'commit', '--quiet', '-am', 'more');
      const second = release(['2.0.0', '--root', dir, '--skip-build']);
      assert.equal(git('rev-parse', 'v2^{commit}'), second.commit);
      assert.equal(git('rev-parse', 'v1^{commit}'), first.commit, 'the old major stays where it was');
      assert.equal(
        readFileSync(join(dir, 'workflows', 'daily.yml'), 'utf8'),
        'uses: acme/mesh-perf-action/.github/workflows/mesh-perf.yml@v2\n',
      );
      assert.throws(() => release(['1.5.0', '--root', dir, '--skip-build']), /not above the latest release v2\.0\.0/);
      writeFileSync(join(dir, 'README.md'), 'dirty\n');
      assert.throws(() => release(['2.0.1', '--root', dir, '--skip-build']), /uncommitted changes/);
      assert.ok(!existsSync(join(dir, 'dist')));
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
      Object.assign(process.env, env);
    }
  });
});
