// The license notices of every npm package bundled into dist/ (MIT, ISC, BSD and Apache-2.0 all
// ask that their notice travel with copies), generated at build time from esbuild's metafile:
// each package whose files went into a bundle, its version, its declared license and the full
// text of its license file. Written to dist/THIRD-PARTY-LICENSES.txt.
import { readFile, readdir } from 'node:fs/promises';
import { join, sep } from 'node:path';

const LICENSE_FILE = /^(licen[sc]e|copying|notice)(\.(md|txt|markdown))?$/i;

/** node_modules/<name> or node_modules/@scope/<name> of a bundled input path, innermost. */
export function packageRootOf(input) {
  const parts = input.split(/[\\/]/);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0 || at + 1 >= parts.length) return undefined;
  const scoped = parts[at + 1].startsWith('@');
  if (scoped && at + 2 >= parts.length) return undefined;
  return parts.slice(0, at + (scoped ? 3 : 2)).join('/');
}

/** Package roots of the node_modules inputs in an esbuild metafile, plus any extra roots. */
export function bundledPackageRoots(metafile, extra = []) {
  const roots = new Set(extra);
  for (const input of Object.keys(metafile.inputs)) {
    const root = packageRootOf(input);
    if (root) roots.add(root);
  }
  return [...roots];
}

async function licenseTexts(dir) {
  const names = (await readdir(dir)).filter((name) => LICENSE_FILE.test(name)).sort();
  return Promise.all(names.map(async (name) => ({ name, text: (await readFile(join(dir, name), 'utf8')).trim() })));
}

/** The notices file: one section per package, sorted by name; a package without a license file says so. */
export async function thirdPartyNotices(projectRoot, roots) {
  const packages = [];
  for (const root of roots) {
    const dir = join(projectRoot, root.split('/').join(sep));
    const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
    const license = typeof pkg.license === 'string' ? pkg.license : (pkg.license?.type ?? 'UNKNOWN');
    packages.push({ name: pkg.name, version: pkg.version, license, files: await licenseTexts(dir) });
  }
  const unique = new Map(packages.map((p) => [`${p.name}@${p.version}`, p]));
  const sorted = [...unique.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.version < b.version ? -1 : 1));
  const header = [
    "Third-party software bundled in mesh-perf-action's dist/",
    '',
    'mesh-perf-action itself is licensed under the Apache License 2.0 (see LICENSE). The bundles in',
    'dist/ include the following packages, each under its own license, reproduced below.',
    '',
    ...sorted.map((p) => `- ${p.name} ${p.version} (${p.license})`),
  ];
  const sections = sorted.map((p) => {
    const body =
      p.files.length > 0
        ? p.files.map((f) => f.text).join('\n\n')
        : `No license file is shipped with this package; its package.json declares: ${p.license}`;
    return [`${'='.repeat(78)}`, `${p.name} ${p.version} (${p.license})`, `${'='.repeat(78)}`, '', body].join('\n');
  });
  return `${[header.join('\n'), ...sections].join('\n\n')}\n`;
}
