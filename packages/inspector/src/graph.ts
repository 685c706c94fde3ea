// The watch graph the page draws: one node per session the store knows (a head row or either end
// of a cursor), grouped by agent, and one edge per cursor from watcher to target, pending pairs
// marked. Pure: it only reshapes what the store returned.
import { fromWatermarks, isNestedSubagent, parseAgentKey, type CursorRow, type HeadRow, type Watermarks } from '@session-state/domain';

/** A session in the graph, with its head when it has one. */
export interface SessionNode {
  /** The session key. */
  readonly id: string;
  readonly kind: 'session';
  /** The id of the agent box this session sits in (see `agentBoxId`), absent for keys that are not agent-qualified. */
  readonly parent?: string;
  /** A nested sub-agent session (`agent:<id>:…subagent…`): never woken, finds its notices on its next turn. */
  readonly nested: boolean;
  /** The state version (0 for a session known only from a cursor). */
  readonly head: number;
  readonly pruneWatermark: number;
  /** Cursors this session holds, and cursors held on it (among those the overview read: at most GRAPH_EDGE_LIMIT). */
  readonly watching: number;
  readonly watchedBy: number;
}

/** The box grouping one agent's sessions. */
export interface AgentNode {
  /** `agent <agentId>` (see `agentBoxId`). */
  readonly id: string;
  readonly kind: 'agent';
  readonly agentId: string;
}

/** One cursor: the watcher (`source`) watches the target, with the cursor's watermarks. */
export interface WatchEdge extends Watermarks {
  /** `<watcher> -> <target>` (keys never hold whitespace, so it is unique). */
  readonly id: string;
  readonly source: string;
  readonly target: string;
  /** A notice is pending for the pair (material above acked, as `fromWatermarks` reads it). */
  readonly pending: boolean;
  /** When a watermark was last written: clock milliseconds. */
  readonly touchedAt: number;
}

/** The whole graph: sessions (ordered by key), agent boxes (ordered by id) and cursors (by watcher, then target). */
export interface WatchGraph {
  readonly sessions: readonly SessionNode[];
  readonly agents: readonly AgentNode[];
  readonly edges: readonly WatchEdge[];
}

/**
 * The id of the box grouping an agent's sessions: `agent <agentId>`. The space keeps it apart
 * from every session key (keys never hold whitespace; `agent:main` is a valid key of its own).
 */
export function agentBoxId(agentId: string): string {
  return `agent ${agentId}`;
}

/**
 * The graph of `heads` (every head row) and `cursors` (the cursors to draw). A key met only as a
 * cursor end (a watcher that never logged an event) is a node with head 0. With `shown`, only
 * those keys are nodes (cursors must lie between them); `allCursors` (default `cursors`) gives
 * each node's watching and watched-by counts.
 *
 * @example const graph = watchGraph(await store.readHeads(), await store.listCursors());
 */
export function watchGraph(heads: readonly HeadRow[], cursors: readonly CursorRow[], shown?: ReadonlySet<string>, allCursors: readonly CursorRow[] = cursors): WatchGraph {
  const heldBy = new Map<string, number>();
  const heldOn = new Map<string, number>();
  for (const cursor of allCursors) {
    heldBy.set(cursor.watcher, (heldBy.get(cursor.watcher) ?? 0) + 1);
    heldOn.set(cursor.target, (heldOn.get(cursor.target) ?? 0) + 1);
  }
  const keys = new Set<string>(shown ?? heads.map((row) => row.sessionKey));
  if (shown === undefined) for (const cursor of cursors) keys.add(cursor.watcher).add(cursor.target);
  const headOf = new Map<string, HeadRow>(heads.map((row) => [row.sessionKey, row]));
  const agents = new Map<string, AgentNode>();
  // Code-unit order (the default sort's), the order the stores sort keys in.
  const sessions = [...keys].sort().map((key): SessionNode => {
    const agent = parseAgentKey(key);
    const parent = agent === undefined ? undefined : agentBoxId(agent.agentId);
    if (agent !== undefined && parent !== undefined && !agents.has(parent)) agents.set(parent, { id: parent, kind: 'agent', agentId: agent.agentId });
    const head = headOf.get(key);
    return {
      id: key,
      kind: 'session',
      ...(parent !== undefined ? { parent } : {}),
      nested: isNestedSubagent(key),
      head: head?.head ?? 0,
      pruneWatermark: head?.pruneWatermark ?? 0,
      watching: heldBy.get(key) ?? 0,
      watchedBy: heldOn.get(key) ?? 0,
    };
  });
  const edges = cursors.map(
    (cursor): WatchEdge => ({
      id: `${cursor.watcher} -> ${cursor.target}`,
      source: cursor.watcher,
      target: cursor.target,
      acked: cursor.acked,
      notified: cursor.notified,
      material: cursor.material,
      pending: fromWatermarks(cursor).status === 'pending',
      touchedAt: cursor.touchedAt,
    }),
  );
  // Agent box ids are unique, so no two compare equal.
  return { sessions, agents: [...agents.values()].sort((a, b) => (a.id < b.id ? -1 : 1)), edges };
}
