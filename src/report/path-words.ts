// The path evidence in words: what the proxies in each mode's path counted for its traffic, by
// their own counters (results: repetitions[].path, read on Kubernetes platforms), summed over the
// repetitions that carry it. "ztunnel counted 1,204 connections (mTLS)", "sidecar counted 12,000
// of 12,000 requests (mTLS); ztunnel none", "no mesh proxy counted it (ztunnel read)", "no mesh proxy
// found in its path (sidecar looked for)". A platform
// without proxy counters (local, endpoints) records none: then the view has no paths and no
// output says anything about them. Pure.
import type { ModeResult, ProxyKind, ProxyTraffic, Repetition } from '../results/types.ts';
import { count } from './numbers.ts';

/** One mode's path in words, over the repetitions given. */
export interface PathView {
  /** "sidecar counted 12,000 of 12,000 requests (mTLS)", or "path not checked" without evidence. */
  text: string;
  /** Some repetition carried evidence. */
  checked: boolean;
}

/** Whether any repetition of the run carries path evidence (else no output mentions the path). */
export function hasPathEvidence(modes: readonly ModeResult[]): boolean {
  return modes.some((m) => m.repetitions.some((r) => r.path !== undefined));
}

/** The path of one mode over `repetitions` (of one profile, or of all its profiles). */
export function pathView(repetitions: readonly Repetition[]): PathView {
  const probed = repetitions.filter((r) => r.path !== undefined);
  if (probed.length === 0) return { text: 'path not checked', checked: false };
  const sums = new Map<ProxyKind, ProxyTraffic>();
  let requests = 0;
  let unread = 0;
  const absent = new Set<ProxyKind>();
  for (const r of probed) {
    requests += r.requests;
    if ((r.path!.problems ?? []).length > 0) unread++;
    for (const p of r.path!.proxies) {
      if (p.pods === 0) {
        absent.add(p.proxy); // looked for, not there (no sidecar injected in a baseline's pods): nothing read
        continue;
      }
      const sum = sums.get(p.proxy);
      if (!sum) sums.set(p.proxy, { ...p, peers: [] });
      else {
        sum.count += p.count;
        sum.mtls += p.mtls;
        sum.plaintext += p.plaintext;
        sum.pods = Math.max(sum.pods, p.pods);
      }
    }
  }
  const proxies = [...sums.values()];
  const counted = proxies.filter((p) => p.count > 0);
  const silent = proxies.filter((p) => p.count === 0).map((p) => p.proxy);
  const parts: string[] = [];
  if (proxies.length === 0)
    parts.push(`no mesh proxy found in its path${absent.size > 0 ? ` (${[...absent].join(', ')} looked for)` : ''}`);
  else if (counted.length === 0) parts.push(`no mesh proxy counted it (${silent.join(', ')} read)`);
  else {
    parts.push(counted.map((p) => proxyText(p, requests)).join(', '));
    if (silent.length > 0) parts.push(`${silent.join(', ')} none`);
  }
  if (probed.length < repetitions.length) parts.push(`read in ${probed.length} of ${repetitions.length} repetitions`);
  if (unread > 0) parts.push(`some pods unread in ${unread} repetition${unread === 1 ? '' : 's'}`);
  return { text: parts.join('; '), checked: true };
}

/** "sidecar counted 12,000 of 12,000 requests (mTLS)", "ztunnel counted 1,204 connections (mTLS)". */
function proxyText(p: ProxyTraffic, requests: number): string {
  const what = p.unit === 'requests' ? `${count(p.count)} of ${count(requests)} requests` : `${count(p.count)} ${p.unit}`;
  return `${p.proxy} counted ${what}${tlsText(p)}`;
}

/** "(mTLS)", "(plaintext)", "(1,000 mTLS, 204 plaintext)"; nothing when the proxy cannot tell (a gateway's client side). */
function tlsText(p: ProxyTraffic): string {
  if (p.mtls === p.count) return ' (mTLS)';
  if (p.plaintext === p.count) return ' (plaintext)';
  const shares = [p.mtls > 0 ? `${count(p.mtls)} mTLS` : '', p.plaintext > 0 ? `${count(p.plaintext)} plaintext` : ''].filter(Boolean);
  return shares.length > 0 ? ` (${shares.join(', ')})` : '';
}
