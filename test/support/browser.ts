// Launches Debian's Chromium through playwright-core for report and dashboard tests: headless,
// no network beyond what the page asks of 127.0.0.1, a fresh profile per launch. Collects console
// errors and page errors so tests can assert there are none.
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.MESH_PERF_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

export interface BrowserSession {
  context: BrowserContext;
  /** A new page whose console errors and uncaught exceptions are collected into `errors`. */
  newPage(): Promise<{ page: Page; errors: string[] }>;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<BrowserSession> {
  const profile = await mkdtemp(join(tmpdir(), 'mesh-perf-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1400, height: 1000 },
      timeout: 60_000,
    });
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
  return {
    context,
    async newPage() {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(`console: ${message.text()}`);
      });
      page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
      return { page, errors };
    },
    async close() {
      await context.close().catch(() => undefined);
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** For every canvas on the page: its id and how many pixels are not fully transparent/white. */
export async function canvasInk(page: Page): Promise<{ id: string; inked: number; width: number; height: number }[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('canvas')).map((canvas) => {
      const ctx = canvas.getContext('2d');
      let inked = 0;
      if (ctx && canvas.width > 0 && canvas.height > 0) {
        const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
        for (let i = 0; i < data.length; i += 4) {
          const white = data[i]! > 250 && data[i + 1]! > 250 && data[i + 2]! > 250;
          if (data[i + 3]! > 0 && !white) inked++;
        }
      }
      return { id: canvas.id, inked, width: canvas.width, height: canvas.height };
    }),
  );
}

/** A cheap fingerprint of what a canvas shows, to tell whether a filter changed the drawing. */
export async function canvasFingerprint(page: Page, selector: string): Promise<string> {
  const png = await page.$eval(selector, (canvas) => (canvas as HTMLCanvasElement).toDataURL('image/png'));
  return createHash('sha1').update(png).digest('hex');
}
