// Refuses a k6-pacer binary whose SHA-256 is not the one src/tools/pins.ts pins for its platform:
// the release workflow runs it on what scripts/build-k6-pacer.sh built before publishing.
//   npx tsx scripts/check-k6-pacer-pin.ts <linux-amd64|linux-arm64> <file>
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { TOOL_PINS } from '../src/tools/pins.ts';

const [platform, file] = process.argv.slice(2);
const key = { 'linux-amd64': 'linux-x64', 'linux-arm64': 'linux-arm64' }[platform ?? ''];
if (!key || !file) {
  console.error('usage: npx tsx scripts/check-k6-pacer-pin.ts <linux-amd64|linux-arm64> <file>');
  process.exit(2);
}
const pin = TOOL_PINS['k6-pacer']!;
const expected = pin.assets[key]?.sha256;
const actual = createHash('sha256').update(readFileSync(file)).digest('hex');
if (actual !== expected) {
  console.error(
    `${file}: SHA-256 ${actual}, but src/tools/pins.ts pins ${expected ?? 'nothing'} for k6-pacer ${pin.version} on ${key}: k6ext/ or the build changed without the pin (rebuild with scripts/build-k6-pacer.sh, pin the new sums and bump the pacer's version)`,
  );
  process.exit(1);
}
console.log(`${file}: k6-pacer ${pin.version} ${key}, SHA-256 ${actual} as pinned`);
