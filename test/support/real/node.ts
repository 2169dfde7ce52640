// The real node: a list of named actions (actions/index.ts), each a small file, run in order by
// up(); a failure undoes the actions already done, in reverse; down() runs every action's undo in
// reverse whatever state a run left (a killed run included). Like kind's cluster create, without
// Docker: the "node" is a set of namespaces this harness creates (network, mount, PID, UTS) with
// kubernetes' pause as its PID 1, and every process of the cluster lives in them. The machinery
// (record, processes by pid, commands inside, actions up and down) is ../namespaced-host.ts,
// shared with the kind tier's contained Docker.
import {
  type Action as HostAction,
  downActions,
  type ExecOutput,
  type HostRecord,
  type HostLayout,
  NamespacedHost,
  readHostRecord,
  upActions,
} from '../namespaced-host.ts';
import { paths } from './layout.ts';

export type NodeRecord = HostRecord;
export type { ExecOutput };
export type Action = HostAction<NodeContext>;

const layout: HostLayout = { state: paths.state, logs: paths.logs, what: 'the real node' };

export class NodeContext extends NamespacedHost {
  constructor(log: (line: string) => void = () => {}) {
    super(layout, log);
  }
}

export const readRecord = (): NodeRecord | undefined => readHostRecord(layout);
export const up = (actions: readonly Action[], node: NodeContext): Promise<void> => upActions(actions, node);
export const down = (actions: readonly Action[], node: NodeContext): Promise<void> => downActions(actions, node);
