import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

const input = (name) => process.env[`INPUT_${name.toUpperCase()}`] ?? '';
// act copies the caller's own repository itself for a plain checkout; what reaches the stand-in
// names a repository and a ref (possibly the caller's own, at a given commit).
const repository = input('repository');
const ref = input('ref');
if (!repository || !ref) {
  console.log(
    `::error::checkout stand-in: needs repository and ref (act copies ${process.env.GITHUB_REPOSITORY} itself otherwise); got ${JSON.stringify({ repository, ref })}`,
  );
  process.exit(1);
}
const dest = resolve(process.env.GITHUB_WORKSPACE, input('path') || '.');
const url = `${process.env.GITHUB_SERVER_URL}/${repository}`;
execFileSync('git', ['clone', '--quiet', '--no-checkout', url, dest], { stdio: 'inherit' });
execFileSync('git', ['-C', dest, 'checkout', '--quiet', '--detach', ref], { stdio: 'inherit' });
const head = execFileSync('git', ['-C', dest, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
console.log(`checkout stand-in: ${repository} at ${ref} is ${head}, in ${dest}`);
