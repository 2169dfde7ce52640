// Linkerd versions the CLI can be downloaded for. Since February 2024 the open-source project
// publishes only edge releases: stable-2.14.10 was the last open-source stable, and stable 2.15+
// builds are Buoyant Enterprise for Linkerd (license key, not on GitHub releases).
import { text } from '../bounded.ts';

export const LAST_OPEN_SOURCE_STABLE = { major: 2, minor: 14 };

/** Why a Linkerd version cannot be used, or undefined when it can. */
export function linkerdVersionProblem(version: string): string | undefined {
  const match = /^(edge|stable)-(\d+)\.(\d+)\.(\d+)$/.exec(version);
  if (!match) return `expected a Linkerd release such as "edge-26.9.1", got ${JSON.stringify(version)}`;
  const [, channel, major, minor] = match;
  const afterLastStable =
    Number(major) > LAST_OPEN_SOURCE_STABLE.major ||
    (Number(major) === LAST_OPEN_SOURCE_STABLE.major && Number(minor) > LAST_OPEN_SOURCE_STABLE.minor);
  if (channel === 'stable' && afterLastStable) {
    return `Linkerd ${version} has no open-source binaries: since 2.15 the Linkerd project publishes only edge releases (stable-2.14.10 was the last open-source stable; later stables are Buoyant Enterprise for Linkerd). Use an edge release such as "edge-26.9.1" (see https://github.com/linkerd/linkerd2/releases)`;
  }
  return undefined;
}

export const linkerdVersion = (fallback: string) =>
  text('kubernetes.linkerd.version', 40)
    .superRefine((version, context) => {
      const problem = linkerdVersionProblem(version);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    })
    .default(fallback)
    .describe('Linkerd release: edge-YY.M.N (open-source stable releases ended with 2.14)');
