// What the browser scripts (src/report/html/client.js, src/site/dashboard/client.js) find on the
// page besides the DOM: Chart.js (inlined before them, untyped here) and the flags the browser
// tests wait for. Only tsconfig.browser.json reads this file.
declare const Chart: any;

interface Window {
  /** Set once the report's charts are drawn. */
  __meshPerfReady?: boolean;
  /** When the report's first screen (and the charts on it) was drawn, and when every chart was. */
  __meshPerfFirstScreen?: number;
  __meshPerfDrawn?: number;
  /** The dashboard's render counter and last render, for the browser tests. */
  __meshPerfRenders?: number;
  __meshPerfRendered?: unknown;
  /** Each suite's index shards and change points as assets/store-data.js gathers them. */
  meshPerfData?: any;
  /** The run page's file name, read by assets/store-data.js to link runs. */
  meshPerfRunPage?: string;
}

// The scripts read <select> and <input> values through getElementById, which is typed
// HTMLElement; a cast in the scripts would change the bytes the pages inline.
interface HTMLElement {
  value: any;
}
