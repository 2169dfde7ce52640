// Source benchmark 004's resource table: CPU and memory min/max/avg per namespace during one scenario, a row
// for the gateway, the app and the mesh control plane, and a TOTAL row that adds the columns up
// (as the source benchmark's own totals do). Our samples are grouped by container role; the roles map to the
// source benchmark's namespaces as below. The load generator (client) is left out: the source benchmark ran vegeta
// outside the cluster.
import type { ResourceUsage } from '../../results/types.ts';
import { alignColumns } from './aggregate.ts';

const ROWS = [
  { row: 'gateway', groups: ['gateway', 'ingress-gateway'] },
  { row: 'app', groups: ['app', 'sidecar', 'waypoint'] },
  // ztunnel runs in istio-system, so per namespace it counts with the control plane.
  { row: 'mesh control plane', groups: ['control-plane', 'ztunnel', 'cni'] },
] as const;
const EXCLUDED = new Set(['client']);

interface Row {
  label: string;
  cpu: { min: number; max: number; avg: number };
  mem: { min: number; max: number; avg: number };
}

export function namespaceRows(usage: readonly ResourceUsage[]): Row[] {
  const rows: Row[] = [];
  const known = new Set<string>(ROWS.flatMap((r) => [...r.groups]));
  const add = (fallbackLabel: string, members: ResourceUsage[]) => {
    if (members.length === 0) return;
    const scopes = [...new Set(members.map((m) => m.scope))];
    rows.push({
      // The source benchmark labels rows by namespace; when several namespaces share a row, name the role.
      label: scopes.length === 1 ? scopes[0]! : fallbackLabel,
      cpu: sum(members.map((m) => m.cpuMillicores)),
      mem: sum(members.map((m) => m.memoryMiB)),
    });
  };
  for (const { row, groups } of ROWS)
    add(
      row,
      usage.filter((u) => (groups as readonly string[]).includes(u.group)),
    );
  const others = [...new Set(usage.map((u) => u.group).filter((g) => !known.has(g) && !EXCLUDED.has(g)))];
  for (const group of others)
    add(
      group,
      usage.filter((u) => u.group === group),
    );
  return rows;
}

export function renderNamespaceTable(usage: readonly ResourceUsage[]): string {
  const rows = namespaceRows(usage);
  const total: Row = { label: 'TOTAL', cpu: sum(rows.map((r) => r.cpu)), mem: sum(rows.map((r) => r.mem)) };
  const cells = [
    ['Namespace', 'CPU_min', 'CPU_max', 'CPU_avg', 'Mem_min', 'Mem_max', 'Mem_avg'],
    ...[...rows, total].map((r) => [
      r.label,
      `${Math.round(r.cpu.min)}m`,
      `${Math.round(r.cpu.max)}m`,
      `${r.cpu.avg.toFixed(2)}m`,
      `${Math.round(r.mem.min)}Mi`,
      `${Math.round(r.mem.max)}Mi`,
      `${r.mem.avg.toFixed(2)}Mi`,
    ]),
  ];
  // The source benchmark's columns: 23 characters for the namespace, 10 for each figure.
  return `${alignColumns(cells, 2, [23, 10, 10, 10, 10, 10, 10]).join('\n')}\n`;
}

function sum(parts: readonly { min: number; max: number; avg: number }[]): { min: number; max: number; avg: number } {
  return parts.reduce((a, b) => ({ min: a.min + b.min, max: a.max + b.max, avg: a.avg + b.avg }), { min: 0, max: 0, avg: 0 });
}
