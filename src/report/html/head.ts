// The start of every page mesh-perf writes (run reports and the trend dashboard) up to </head>:
// one copy, so the generator mark the history store looks for (history/layout.ts GENERATOR_META)
// and the viewport stay the same on both. Pure.
import { escapeHtml as e } from './escape.ts';

/** `<!doctype html>` through `</head>`, with the page's title and its styles (already HTML). */
export function pageHead(title: string, styles: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="mesh-perf">
<link rel="icon" href="data:,">
<title>${e(title)}</title>
${styles}
</head>`;
}
