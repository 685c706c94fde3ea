// The watch graph built from head rows and cursor rows: every session once, agent boxes apart
// from every session key, nested sub-agents marked, and each cursor an edge marked pending
// exactly when the pair has a notice pending.
import { asSequence, type CursorRow, type HeadRow, type SessionKey } from '@session-state/domain';

import { agentBoxId, watchGraph } from '../src/graph.js';

const key = (text: string): SessionKey => text as SessionKey;
const head = (sessionKey: string, h: number, pruneWatermark = 0): HeadRow => ({ sessionKey: key(sessionKey), head: asSequence(h), pruneWatermark: asSequence(pruneWatermark) });
const cursor = (watcher: string, target: string, acked: number, notified: number, material: number): CursorRow => ({
  watcher: key(watcher),
  target: key(target),
  acked: asSequence(acked),
  notified: asSequence(notified),
  material: asSequence(material),
  touchedAt: Date.UTC(2026, 10, 1),
});

describe('watchGraph', () => {
  const heads = [head('agent:main:subagent:researcher', 9, 4), head('agent:main', 3), head('global', 5)];
  const cursors = [
    cursor('agent:main:main', 'agent:main:subagent:researcher', 7, 7, 7),
    cursor('agent:ops:main', 'agent:main:subagent:researcher', 6, 9, 9),
    // A lagging row the restart scan has not raised yet: material above acked, notified not.
    cursor('agent:ops:main', 'agent:main:subagent:writer', 2, 2, 5),
  ];
  const graph = watchGraph(heads, cursors);

  test('has one node per session key met in a head row or at either end of a cursor, in key order', () => {
    expect(graph.sessions.map((node) => node.id)).toEqual([
      'agent:main',
      'agent:main:main',
      'agent:main:subagent:researcher',
      'agent:main:subagent:writer',
      'agent:ops:main',
      'global',
    ]);
  });

  test('puts agent-qualified sessions in their agent box, whose id no session key can have', () => {
    const parentOf = Object.fromEntries(graph.sessions.map((node) => [node.id, node.parent]));
    expect(parentOf).toEqual({
      'agent:main': undefined,
      'agent:main:main': agentBoxId('main'),
      'agent:main:subagent:researcher': agentBoxId('main'),
      'agent:main:subagent:writer': agentBoxId('main'),
      'agent:ops:main': agentBoxId('ops'),
      global: undefined,
    });
    expect(graph.agents.map((agent) => agent.id)).toEqual(['agent main', 'agent ops']);
    const ids = new Set(graph.sessions.map((node) => node.id));
    for (const agent of graph.agents) expect(ids.has(agent.id)).toBe(false);
  });

  test('marks nested sub-agent sessions and carries heads, watermarks and cursor counts', () => {
    const researcher = graph.sessions.find((node) => node.id === 'agent:main:subagent:researcher');
    expect(researcher).toMatchObject({ nested: true, head: 9, pruneWatermark: 4, watching: 0, watchedBy: 2 });
    const ops = graph.sessions.find((node) => node.id === 'agent:ops:main');
    expect(ops).toMatchObject({ nested: false, head: 0, pruneWatermark: 0, watching: 2, watchedBy: 0 });
  });

  test('has one edge per cursor, pending exactly when material is above acked', () => {
    expect(graph.edges.map((edge) => [edge.source, edge.target, edge.pending])).toEqual([
      ['agent:main:main', 'agent:main:subagent:researcher', false],
      ['agent:ops:main', 'agent:main:subagent:researcher', true],
      ['agent:ops:main', 'agent:main:subagent:writer', true],
    ]);
    expect(graph.edges[1]).toMatchObject({ id: 'agent:ops:main -> agent:main:subagent:researcher', acked: 6, notified: 9, material: 9, touchedAt: Date.UTC(2026, 10, 1) });
  });
});
