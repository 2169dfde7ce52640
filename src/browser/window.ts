// What the store's pages share on `window`: the data scripts' callbacks (meshPerfStore), the
// dashboard's gathered suites (meshPerfData) and the flags the browser tests and the bench wait for.
declare global {
  interface Window {
    meshPerfStore?: Record<string, (...args: never[]) => void>;
    meshPerfData?: Record<string, unknown>;
    /** The run page's file name, set by the dashboard before it loads data. */
    meshPerfRunPage?: string;
    /** performance.now() when a page's first render finished. */
    __meshPerfRendered?: number;
    /** Set by the report's chart script once the charts are drawn. */
    __meshPerfReady?: boolean;
    /** Set by the report's chart script when the first screen's charts are drawn. */
    __meshPerfFirstScreen?: number;
  }
}

export {};
