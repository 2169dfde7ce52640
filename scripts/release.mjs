// Cuts a release: `node scripts/release.mjs 1.2.0 [--repo owner/name] [--push] [--skip-build]`.
//   1. refuses a dirty tree, a version that is not X.Y.Z, or one not above the latest vX.Y.Z tag;
//   2. sets package.json's version (and, with --repo, its repository and homepage: npm checks the
//      package's provenance against that repository), rebuilds dist/ and schema/ (npm run build) so the tagged
//      commit runs exactly its own sources (callers may pin a SHA);
//   3. rewrites the self-references users copy (`org/mesh-perf-action@v1`,
//      `.../setup@v1`, `.../.github/workflows/mesh-perf.yml@v1`) in README, docs, workflows and
//      actions to the new major (and to --repo's owner/name when given);
//   4. turns CHANGELOG.md's "Unreleased" section into "X.Y.Z - date";
//   5. commits "Release vX.Y.Z", tags vX.Y.Z (annotated) and moves the major tag vX to it.
// With --push it pushes the branch, vX.Y.Z and (forced) vX to origin; otherwise it prints the
// commands. The tag vX.Y.Z starts .github/workflows/release.yml, which publishes the CLI to npm. vX is a plain moving tag, never a GitHub release, so immutable releases can still be
// enabled for vX.Y.Z.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SELF_REFERENCE = /\b([A-Za-z0-9_.-]+\/mesh-perf-action)((?:\/[A-Za-z0-9_.-]+)*)@v\d+(?:\.\d+\.\d+)?\b/g;

/** Points every `<owner>/mesh-perf-action[/path]@vN` at the new major (and repository). */
export function rewriteSelfReferences(text, { major, repo }) {
  return text.replace(SELF_REFERENCE, (_match, ownRepo, path) => `${repo ?? ownRepo}${path}@v${major}`);
}

export function parseVersion(text) {
  const match = /^v?(\d+)\.(\d+)\.(\d+)$/.exec(text ?? '');
  if (!match) return undefined;
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]), text: `${match[1]}.${match[2]}.${match[3]}` };
}

export function compareVersions(a, b) {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

/** "## Unreleased" becomes "## X.Y.Z - date" under a fresh empty "## Unreleased". */
export function releaseChangelog(text, version, date) {
  const heading = /^## Unreleased[^\n]*\n/m;
  if (!heading.test(text)) throw new Error('CHANGELOG.md has no "## Unreleased" section to release');
  return text.replace(heading, `## Unreleased\n\n## ${version} - ${date}\n`);
}

/** Files users copy from: README, docs, the workflows and the actions' metadata. */
export function selfReferenceFiles(root) {
  const inDir = (dir, pattern) =>
    existsSync(join(root, dir))
      ? readdirSync(join(root, dir))
          .filter((f) => pattern.test(f))
          .map((f) => join(dir, f))
      : [];
  return [
    'README.md',
    'action.yml',
    'setup/action.yml',
    'comment/action.yml',
    ...inDir('docs', /\.md$/),
    ...inDir('workflows', /\.ya?ml$/),
    ...inDir('.github/workflows', /\.ya?ml$/),
  ].filter((f) => existsSync(join(root, f)));
}

function parseArgs(argv) {
  const options = {
    push: false,
    build: true,
    repo: undefined,
    root: resolve(dirname(fileURLToPath(import.meta.url)), '..'),
    version: undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--push') options.push = true;
    else if (arg === '--skip-build') options.build = false;
    else if (arg === '--repo') options.repo = argv[++i];
    else if (arg === '--root') options.root = resolve(argv[++i]);
    else if (!arg.startsWith('-') && !options.version) options.version = arg;
    else throw new Error(`unknown argument ${arg}`);
  }
  return options;
}

export function release(argv, now = new Date()) {
  const options = parseArgs(argv);
  const version = parseVersion(options.version);
  if (!version) throw new Error(`expected a version X.Y.Z (e.g. 1.2.0), got ${JSON.stringify(options.version)}`);
  if (options.repo !== undefined && !/^[A-Za-z0-9_.-]+\/mesh-perf-action$/.test(options.repo))
    throw new Error(`--repo: expected owner/mesh-perf-action, got ${JSON.stringify(options.repo)}`);
  const git = (...args) => execFileSync('git', args, { cwd: options.root, encoding: 'utf8' }).trim();
  if (git('status', '--porcelain')) throw new Error('the working tree has uncommitted changes; commit or stash them first');
  const tags = git('tag', '--list', 'v*.*.*').split('\n').map(parseVersion).filter(Boolean).sort(compareVersions);
  const latest = tags.at(-1);
  if (latest && compareVersions(version, latest) <= 0) throw new Error(`v${version.text} is not above the latest release v${latest.text}`);

  const packagePath = join(options.root, 'package.json');
  const pkg = JSON.parse(readFileSync(packagePath, 'utf8'));
  pkg.version = version.text;
  if (options.repo !== undefined) {
    pkg.repository = { type: 'git', url: `git+https://github.com/${options.repo}.git` };
    pkg.homepage = `https://github.com/${options.repo}#readme`;
  }
  writeFileSync(packagePath, `${JSON.stringify(pkg, null, 2)}\n`);
  if (options.build) execFileSync('npm', ['run', 'build'], { cwd: options.root, stdio: 'inherit' });
  for (const file of selfReferenceFiles(options.root)) {
    const path = join(options.root, file);
    const before = readFileSync(path, 'utf8');
    const after = rewriteSelfReferences(before, { major: version.major, repo: options.repo });
    if (after !== before) writeFileSync(path, after);
  }
  const changelog = join(options.root, 'CHANGELOG.md');
  writeFileSync(changelog, releaseChangelog(readFileSync(changelog, 'utf8'), version.text, now.toISOString().slice(0, 10)));

  git('add', '--all');
  git('-c', 'commit.gpgsign=false', 'commit', '--quiet', '-m', `Release v${version.text}`);
  git('-c', 'tag.gpgsign=false', 'tag', '--annotate', `v${version.text}`, '-m', `v${version.text}`);
  git('tag', '--force', `v${version.major}`, `v${version.text}^{commit}`);
  const branch = git('rev-parse', '--abbrev-ref', 'HEAD');
  const pushes = [
    ['push', 'origin', branch, `v${version.text}`],
    ['push', '--force', 'origin', `v${version.major}`],
  ];
  if (options.push) for (const args of pushes) git(...args);
  return {
    version: version.text,
    major: `v${version.major}`,
    commit: git('rev-parse', 'HEAD'),
    pushed: options.push,
    pushCommands: pushes.map((args) => `git ${args.join(' ')}`),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const done = release(process.argv.slice(2));
    console.log(`released v${done.version} at ${done.commit.slice(0, 12)}; ${done.major} moved to it`);
    if (!done.pushed) console.log(`push it with:\n  ${done.pushCommands.join('\n  ')}`);
  } catch (error) {
    console.error(`release: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
}
