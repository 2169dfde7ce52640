// `npm run docs:images`: redraws the pictures in docs/images/ (report.html, the trend dashboard,
// the PR comment, the job summary) with the project's own renderers, screenshots them in headless
// Chromium (Debian's, through playwright-core), reduces each PNG to a 256-colour palette when it
// is over the size budget, and records what they were drawn from in docs/images/sources.json
// (scripts/docs-images/freshness.ts), which test/docs/images-fresh.test.ts compares.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchBrowser } from '../../test/support/browser.ts';
import { pictureSources, REGENERATE, sourcesHash } from './freshness.ts';
import { IMAGES_DIR, PICTURES, writePages } from './pages.ts';
import { fitPng, MAX_BYTES, pngSize } from './png.ts';

// The comment and the summary lead with ✅ ❌ ⚠️: without a colour emoji font Chromium draws empty boxes.
const EMOJI_FONT = '/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf';
if (!existsSync(EMOJI_FONT)) {
  console.error(`${EMOJI_FONT} is missing: run \`bash scripts/install-browser.sh\` (Debian's chromium and fonts-noto-color-emoji)`);
  process.exit(3);
}

const dir = mkdtempSync(join(tmpdir(), 'mesh-perf-docs-images-'));
const browser = await launchBrowser();
try {
  await writePages(dir);
  const images: Record<string, { bytes: number; width: number; height: number }> = {};
  for (const picture of PICTURES) {
    const { page, errors } = await browser.newPage();
    await page.setViewportSize({ width: picture.width, height: 'height' in picture.capture ? picture.capture.height : 800 });
    await page.goto(pathToFileURL(join(dir, picture.page)).href);
    await page.waitForLoadState('load');
    // Charts draw after load, with their animation; pictures show them finished.
    await page.waitForTimeout(1_000);
    const shot =
      'selector' in picture.capture
        ? await page.locator(picture.capture.selector).screenshot()
        : await page.screenshot({ fullPage: false });
    if (errors.length > 0) throw new Error(`${picture.page}: ${errors.join('; ')}`);
    await page.close();
    const png = await fitPng(shot);
    writeFileSync(join(IMAGES_DIR, picture.file), png);
    images[picture.file] = { bytes: png.length, ...pngSize(png) };
    console.log(
      `${picture.file}: ${images[picture.file]!.width}×${images[picture.file]!.height}, ${(png.length / 1024).toFixed(0)} KB (budget ${MAX_BYTES / 1024} KB)`,
    );
  }
  const sources = pictureSources();
  const manifest = { regenerate: REGENERATE, hash: sourcesHash(sources), images, sources };
  writeFileSync(join(IMAGES_DIR, 'sources.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`docs/images/sources.json: ${Object.keys(sources).length} sources, hash ${manifest.hash.slice(0, 12)}`);
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}
