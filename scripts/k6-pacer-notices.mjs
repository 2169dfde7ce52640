// The license notices of every Go module linked into a k6-pacer binary (k6 itself, AGPL-3.0, and
// its dependencies; k6ext/ is this repository's, Apache-2.0), published beside the binaries by
// .github/workflows/release-k6-pacer.yml: the modules and versions from the binary's own build
// information (`go version -m`), each module's license files from the Go module cache (filled by
// the build). A module without a license file there is listed as such.
//   node scripts/k6-pacer-notices.mjs <k6 binary> <output file>
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const LICENSE_FILE = /^(licen[sc]e|copying|notice)([.-].*)?$/i;

/** The module cache's directory name for a module path: capitals become "!" + lower case. */
export function escapeModulePath(path) {
  return path.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
}

/** `go version -m` lines: "\tdep\t<path>\t<version>\t<sum>", a replacement as "\t=>\t<path>\t<version>". */
export function linkedModules(goVersionOutput) {
  const modules = [];
  for (const line of goVersionOutput.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields[0] === 'dep') modules.push({ path: fields[1], version: fields[2] });
    else if (fields[0] === '=>' && modules.length > 0) modules[modules.length - 1] = { path: fields[1], version: fields[2] };
  }
  return modules;
}

function notices(binary) {
  const modCache = execFileSync('go', ['env', 'GOMODCACHE'], { encoding: 'utf8' }).trim();
  const modules = linkedModules(execFileSync('go', ['version', '-m', binary], { encoding: 'utf8' }));
  const sections = modules.map(({ path, version }) => {
    const dir = join(modCache, `${escapeModulePath(path)}@${version}`);
    const files = existsSync(dir)
      ? readdirSync(dir)
          .filter((n) => LICENSE_FILE.test(n))
          .sort()
      : [];
    const texts = files.map((name) => `--- ${name}\n${readFileSync(join(dir, name), 'utf8').trim()}`);
    return `=== ${path} ${version}\n${texts.length > 0 ? texts.join('\n\n') : '(no license file in the module)'}`;
  });
  return `Go modules linked into k6 with mesh-perf's pacer (${modules.length}), with their license files.\nk6 (go.k6.io/k6) is AGPL-3.0; mesh-perf's k6ext module is Apache-2.0 (this repository).\n\n${sections.join('\n\n')}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [binary, out] = process.argv.slice(2);
  if (!binary || !out) {
    console.error('usage: node scripts/k6-pacer-notices.mjs <k6 binary> <output file>');
    process.exit(2);
  }
  writeFileSync(out, notices(binary));
  console.log(`${out}: notices of the modules linked into ${binary}`);
}
