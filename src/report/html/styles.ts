// Styles shared by the run report and the dashboard. System fonts only: the pages must render
// offline, from file:// or a Pages site, without fetching anything.
export const BASE_CSS = `
:root { --fg: #1b1f24; --muted: #59636e; --line: #d1d9e0; --bg: #ffffff; --panel: #f6f8fa;
  --pass: #1a7f37; --fail: #cf222e; --invalid: #9a6700; --inconclusive: #bc4c00; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: var(--fg); background: var(--bg); }
header { padding: 16px 24px; border-bottom: 1px solid var(--line); background: var(--panel); }
header h1 { margin: 0 0 4px; font-size: 20px; }
header .meta { color: var(--muted); display: flex; flex-wrap: wrap; gap: 4px 16px; }
main { padding: 8px 24px 32px; max-width: 1400px; }
section { margin-top: 24px; }
h2 { font-size: 17px; margin: 0 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 16px 0 8px; }
a { color: #0969da; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
/* A table wider than the page scrolls inside its own box (a phone is 400 px; the page is not). */
table { border-collapse: collapse; margin: 4px 0 12px; display: block; max-width: 100%; overflow-x: auto; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: right; vertical-align: top; }
th:first-child, td:first-child, td.text, th.text { text-align: left; }
thead th { background: var(--panel); }
.ci { color: var(--muted); font-size: 12px; white-space: nowrap; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; color: #fff; font-weight: 600; font-size: 12px; }
.badge.pass { background: var(--pass); } .badge.fail { background: var(--fail); } .badge.invalid { background: var(--invalid); }
.badge.skipped { background: #6e7781; } .badge.inconclusive { background: var(--inconclusive); }
.badge.confirmed { background: var(--fail); } .badge.withdrawn { background: var(--pass); } .badge.environment { background: #8250df; }
.badge.cannot-rerun, .badge.not-run, .badge.unconfirmed { background: #6e7781; }
#change-point li { margin-bottom: 4px; }
tr.invalid td { background: #fff8c5; }
td.errors, td.errors .ci { color: var(--fail); font-weight: 600; }
.reason { color: var(--invalid); }
.note { color: var(--muted); }
/* The omitted-repetitions row spans a table wider than the page: its text stays in view as it scrolls. */
tr.omitted span { position: sticky; left: 8px; display: inline-block; max-width: calc(100vw - 64px); }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(520px, 100%), 1fr)); gap: 16px; }
.grid > * { min-width: 0; }
.chart { position: relative; height: 320px; border: 1px solid var(--line); border-radius: 6px; padding: 8px; background: #fff; }
.chart-title { font-weight: 600; margin: 0 0 4px; }
.controls { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; margin: 8px 0; }
.controls label { color: var(--muted); }
dl.kv { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0; }
dl.kv dt { color: var(--muted); } dl.kv dd { margin: 0; }
dl.kv dd, header .meta { overflow-wrap: anywhere; min-width: 0; }
details pre { max-height: 480px; overflow: auto; background: var(--panel); padding: 8px; max-width: 100%; }
@media (max-width: 600px) {
  header { padding: 12px; }
  main { padding: 4px 12px 24px; }
  .chart { height: 380px; } /* legends wrap to more lines: keep room for the plot */
  figure { margin: 0; }
}
`;
