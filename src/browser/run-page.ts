// The run page's script (assets/run-page.js in a history store, bundled by site/scripts.ts): a
// front end in the browser. It reads the run named in the URL from its stored files, decodes it
// with the store's own codecs, builds the run's view and renders it with report.html's renderer
// (report/html/page.ts, through run-page-html.ts), then hands the charts to the report's chart script. The run was checked
// against the results schema when it was stored; here it is only migrated.
import { decodeBody, withTimelines, type StoredBody } from '../history/run-codec.ts';
import { unpackTimelines } from '../history/timeline-codec.ts';
import { migrateDocument } from '../results/migrate-steps.ts';
import type { RunResult } from '../results/types.ts';
import { runPageHtml, type StoredChangePoints } from './run-page-html.ts';
import type { RunPageConfig } from '../site/run-page/render.ts';
import { gunzipBase64, loadScript } from './unpack.ts';
import { withFields } from '../history/change-points.ts';
import './window.ts';

type Payload = [format: number, base64: string | null];

const RUN_FORMAT = 1;
const TIMELINES_FORMAT = 1;

const received: { run?: Payload; timelines?: Payload; changes?: StoredChangePoints } = {};
window.meshPerfStore = {
  run: (format: number, base64: string | null) => void (received.run = [format, base64]),
  timelines: (format: number, base64: string | null) => void (received.timelines = [format, base64]),
  changePoints: (doc: Partial<StoredChangePoints>) => void (received.changes = changePointsOf(doc)),
};

/** The suite's change points as its file hands them over; anything unexpected reads as none. */
function changePointsOf(doc: (Partial<StoredChangePoints> & { fields?: Record<string, unknown> }) | undefined): StoredChangePoints {
  const list = (
    Array.isArray(doc?.changePoints) ? withFields(doc.changePoints, doc.fields) : []
  ) as StoredChangePoints['changePoints'][number][];
  return {
    ...(typeof doc?.mainBranch === 'string' ? { mainBranch: doc.mainBranch } : {}),
    changePoints: list.filter((cp) => typeof cp?.branch === 'string' && typeof cp.afterStartedAt === 'string'),
  };
}

function status(text: string): void {
  const line = document.getElementById('run-status');
  if (line) line.textContent = text;
}

/** "#run=nightly/2025/20250115T030000Z-ab12cd" → "nightly/2025/20250115T030000Z-ab12cd", checked part by part. */
function runKey(hash: string): string | undefined {
  const match = /(?:^#|&)run=([^&]+)/.exec(hash);
  if (!match) return undefined;
  const parts = match[1]!.split('/').map((p) => decodeURIComponent(p));
  const ok =
    parts.length === 3 && parts.every((p) => /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(p) && !p.includes('..')) && /^\d{4}$/.test(parts[1]!);
  return ok ? parts.join('/') : undefined;
}

async function readRun(): Promise<RunResult> {
  const [format, base64] = received.run ?? [0, null];
  if (format !== RUN_FORMAT || base64 === null)
    throw new Error(`the run file is in format ${format}, which this page does not read (${RUN_FORMAT})`);
  const body = JSON.parse(new TextDecoder().decode(await gunzipBase64(base64))) as StoredBody;
  let doc = decodeBody(body);
  const [tlFormat, tlBase64] = received.timelines ?? [TIMELINES_FORMAT, null];
  if (tlFormat === TIMELINES_FORMAT && tlBase64 !== null) {
    const bytes = await gunzipBase64(tlBase64);
    const points = bytes[0] === 0x5b ? JSON.parse(new TextDecoder().decode(bytes)) : unpackTimelines(bytes);
    doc = withTimelines(doc, points) ?? doc;
  }
  if (typeof doc.schemaVersion !== 'number') throw new Error('the run file holds no schemaVersion');
  return migrateDocument(doc as unknown as Record<string, unknown>) as unknown as RunResult;
}

async function main(): Promise<void> {
  const config = JSON.parse(document.getElementById('mesh-perf-run-page')!.textContent ?? '{}') as RunPageConfig;
  const key = runKey(location.hash);
  if (!key) {
    status('No run named in this address. Open a run from the trend dashboard (its points and the latest runs link here).');
    return;
  }
  performance.mark('mesh-perf:start');
  const chart = loadScript(config.chartJs);
  const base = `${config.runs}${key.split('/').map(encodeURIComponent).join('/')}`;
  // The suite's change points say whether the run follows one (a store without the file: none).
  const suite = key.split('/')[0]!;
  const changes = loadScript(`${config.runs}${encodeURIComponent(suite)}/change-points.${encodeURIComponent(suite)}.js`).catch(
    () => undefined,
  );
  try {
    await Promise.all([loadScript(`${base}.js`), loadScript(`${base}.tl.js`), changes]);
    performance.mark('mesh-perf:loaded');
  } catch (error) {
    status(`Run ${key} is not in this history (${(error as Error).message}): retention may have removed it.`);
    return;
  }
  let html: string;
  try {
    const result = await readRun();
    const results = URL.createObjectURL(new Blob([`${JSON.stringify(result, null, 2)}\n`], { type: 'application/json' }));
    html = runPageHtml(result, config, { href: results, download: `${key.split('/')[2]}.results.json` }, received.changes);
  } catch (error) {
    status(`Run ${key} could not be read: ${(error as Error).message}`);
    return;
  }
  performance.mark('mesh-perf:decoded');
  const page = new DOMParser().parseFromString(html, 'text/html');
  // The report's scripts run once the charts' data are in the page, Chart.js first; the parsed
  // copies would not run.
  for (const script of page.querySelectorAll('script:not([type="application/json"])')) script.remove();
  document.title = page.title;
  document.body.replaceWith(document.adoptNode(page.body));
  performance.mark('mesh-perf:inserted');
  await chart;
  performance.mark('mesh-perf:chartjs');
  await loadScript(config.reportJs);
  // The report's first screen is drawn (report.js draws the charts below it after the page paints).
  window.__meshPerfRendered = window.__meshPerfFirstScreen ?? performance.now();
}

main().catch((error: unknown) => status(`The run page failed: ${(error as Error).message}`));
