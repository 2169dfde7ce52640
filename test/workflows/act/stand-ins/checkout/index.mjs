import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

const input = (name) => process.env[`INPUT_${name.toUpperCase()}`] ?? '';
const repository = input('repository');
const ref = input('ref');
if (!repository || repository === process.env.GITHUB_REPOSITORY) {
  console.log(`::error::checkout stand-in: only checkouts of another repository reach it (act copies ${process.env.GITHUB_REPOSITORY} itself); got repository ${JSON.stringify(repository)}`);
  process.exit(1);
}
if (!ref) {
  console.log('::error::checkout stand-in: ref is empty');
  process.exit(1);
}
const dest = resolve(process.env.GITHUB_WORKSPACE, input('path') || '.');
const url = `${process.env.GITHUB_SERVER_URL}/${repository}`;
execFileSync('git', ['clone', '--quiet', '--no-checkout', url, dest], { stdio: 'inherit' });
execFileSync('git', ['-C', dest, 'checkout', '--quiet', '--detach', ref], { stdio: 'inherit' });
const head = execFileSync('git', ['-C', dest, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
console.log(`checkout stand-in: ${repository} at ${ref} is ${head}, in ${dest}`);
