// Durations are written the way k6 writes them ("10s", "1m30s", "500ms") so a config reads like
// the k6 scripts our users already have. A bare number is rejected: "10" could mean s or ms.
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const DURATION = /^(\d+(?:\.\d+)?(?:ms|s|m|h))+$/;
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;

// Whitespace is not trimmed: "10s\n" (a YAML block scalar) is refused, not carried into the
// plan's table and the results as a duration with a line break in it.
export function parseDurationMs(text: string): number | undefined {
  if (!DURATION.test(text)) return undefined;
  let total = 0;
  for (const match of text.matchAll(PART)) total += Number(match[1]) * UNIT_MS[match[2]!]!;
  return total;
}

export function formatDuration(ms: number): string {
  if (ms % 3_600_000 === 0 && ms > 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0 && ms > 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
