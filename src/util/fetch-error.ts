// Node's fetch fails with "fetch failed" and hides the reason in `cause` (ECONNREFUSED, ENOTFOUND,
// a certificate problem, a timeout). This names the URL and that reason.
export function describeFetchError(url: string, error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const e = current as { name?: string; message?: string; code?: string; cause?: unknown };
    const text =
      e.name === 'TimeoutError'
        ? 'timed out'
        : e.code && e.message && !e.message.includes(e.code)
          ? `${e.code}: ${e.message}`
          : (e.message ?? String(current));
    if (text && text !== 'fetch failed' && !parts.includes(text)) parts.push(text);
    current = e.cause;
  }
  return `${url}: ${parts.join(': ') || 'fetch failed (no further detail)'}`;
}
