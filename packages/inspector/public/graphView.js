// The watch graph of the inspector page (cytoscape): sessions in one box per agent, boxes packed
// in rows, labels without the agent prefix the box already names, and edge labels only on the
// selected arrow, so no label is drawn over another; session labels too small to read at the
// current zoom are not drawn (the agent boxes' titles are), so a large graph reads as its agents. Filtering (search, agent, pending only) is
// done by the page; this file draws what it is given. Plain browser JavaScript, no build step.
'use strict';

window.createGraphView = function createGraphView(container) {
  const CELL_WIDTH = 170;
  const CELL_HEIGHT = 58;
  /** The closest the first view zooms in: a small graph is not blown up. */
  const FIT_MAX_ZOOM = 1.2;
  const BOX_GAP = 70;

  const cy = cytoscape({
    container,
    minZoom: 0.1,
    maxZoom: 2,
    wheelSensitivity: 0.3,
    style: [
      { selector: 'node', style: { label: 'data(label)', 'font-size': 12, 'text-wrap': 'ellipsis', 'text-max-width': CELL_WIDTH - 14, 'text-valign': 'bottom', 'text-margin-y': 3, color: '#1d2330', 'min-zoomed-font-size': 8 } },
      { selector: 'node.session', style: { 'background-color': '#2f6fdd', width: 16, height: 16 } },
      { selector: 'node.nested', style: { 'background-color': '#8a4fd8', shape: 'round-rectangle', 'border-width': 2, 'border-style': 'dashed', 'border-color': '#4a2a80' } },
      { selector: 'node.pending', style: { 'border-width': 3, 'border-color': '#d9480f', 'border-style': 'solid' } },
      { selector: 'node.match', style: { 'background-color': '#f2b705' } },
      { selector: 'node.agent', style: { 'background-color': '#eef2fa', 'background-opacity': 0.7, 'border-color': '#b9c3d8', 'border-width': 1, shape: 'round-rectangle', 'text-valign': 'top', 'text-halign': 'center', 'text-margin-y': -4, 'font-size': 'data(titleSize)', 'text-wrap': 'none', 'font-weight': 'bold', color: '#46506a', padding: 14 } },
      { selector: 'node:selected', style: { 'border-width': 3, 'border-color': '#f2b705', 'border-style': 'solid' } },
      { selector: 'edge', style: { width: 1.5, 'line-color': '#aab3c5', 'target-arrow-color': '#aab3c5', 'target-arrow-shape': 'triangle', 'arrow-scale': 0.8, 'curve-style': 'bezier', opacity: 0.8 } },
      { selector: 'edge.pending', style: { width: 3, 'line-color': '#d9480f', 'target-arrow-color': '#d9480f', opacity: 1, 'z-index': 2 } },
      { selector: 'edge:selected', style: { label: 'data(label)', 'font-size': 11, color: '#b03a0c', 'text-background-color': '#fff', 'text-background-opacity': 1, 'text-background-padding': 2, 'text-border-width': 1, 'text-border-color': '#d9480f', 'text-border-opacity': 1, 'line-style': 'dashed', 'z-index': 9 } },
    ],
  });

  /** The label of a session inside its agent box: the key without `agent:<id>:`. */
  function shortLabel(session, agentsById) {
    const agent = session.parent === undefined ? undefined : agentsById.get(session.parent);
    const prefix = agent === undefined ? '' : `agent:${agent.agentId}:`;
    const name = prefix !== '' && session.id.startsWith(prefix) ? session.id.slice(prefix.length) : session.id;
    return session.head > 0 ? `${name} · v${session.head}` : name;
  }

  /**
   * Where each session sits: each agent's sessions in a square-ish grid (main sessions first,
   * nested sub-agents last), the boxes packed left to right in rows, as many per row as make the
   * whole about the panel's shape. Deterministic, so the same store always draws the same picture.
   */
  function positions(groups) {
    const placed = {};
    const aspect = Math.max(1, container.clientWidth / Math.max(1, container.clientHeight));
    const boxes = groups.map((group) => {
      const columns = Math.max(1, Math.ceil(Math.sqrt(group.sessions.length)));
      return { group, columns, width: columns * CELL_WIDTH, height: Math.ceil(group.sessions.length / columns) * CELL_HEIGHT };
    });
    const area = boxes.reduce((sum, box) => sum + (box.width + BOX_GAP) * (box.height + BOX_GAP), 0);
    const rowWidth = Math.max(...boxes.map((box) => box.width), Math.sqrt(area * aspect));
    let x = 0;
    let y = 0;
    let rowHeight = 0;
    for (const { group, columns, width, height } of boxes) {
      if (x > 0 && x + width > rowWidth) {
        x = 0;
        y += rowHeight + BOX_GAP;
        rowHeight = 0;
      }
      group.sessions.forEach((session, index) => {
        placed[session.id] = { x: x + (index % columns) * CELL_WIDTH, y: y + Math.floor(index / columns) * CELL_HEIGHT };
      });
      x += width + BOX_GAP;
      rowHeight = Math.max(rowHeight, height);
    }
    return placed;
  }

  /** The sessions by agent box (key order), nested sub-agents last in each, bare keys in a last group. */
  function groupsOf(graph) {
    const byParent = new Map(graph.agents.map((agent) => [agent.id, []]));
    byParent.set('', []);
    for (const session of graph.sessions) byParent.get(session.parent === undefined ? '' : session.parent).push(session);
    return [...byParent.values()]
      .filter((sessions) => sessions.length > 0)
      .map((sessions) => ({ sessions: [...sessions.filter((s) => !s.nested), ...sessions.filter((s) => s.nested)] }));
  }

  let layoutKey = '';

  /**
   * Draws `graph` (already filtered by the page); `matches` are highlighted; lays out again only
   * when the set of elements changed.
   */
  function draw(graph, matches, selectedId) {
    const agentsById = new Map(graph.agents.map((agent) => [agent.id, agent]));
    const titleSize = Math.round(Math.min(40, Math.max(13, Math.sqrt(graph.sessions.length) * 2.4)));
    const pendingEnds = new Set(graph.edges.filter((edge) => edge.pending).map((edge) => edge.target));
    const nodes = [
      // A box's title grows with the graph, so it still reads when the view is zoomed out to fit.
      ...graph.agents.map((agent) => ({ group: 'nodes', data: { id: agent.id, label: `agent ${agent.agentId}`, kind: 'agent', titleSize: titleSize }, classes: 'agent' })),
      ...graph.sessions.map((session) => ({
        group: 'nodes',
        data: { id: session.id, label: shortLabel(session, agentsById), kind: 'session', head: session.head, ...(session.parent !== undefined ? { parent: session.parent } : {}) },
        classes: ['session', session.nested ? 'nested' : '', pendingEnds.has(session.id) ? 'pending' : '', matches.has(session.id) ? 'match' : ''].join(' ').trim(),
      })),
    ];
    const edges = graph.edges.map((edge) => ({
      group: 'edges',
      data: { id: edge.id, source: edge.source, target: edge.target, pending: edge.pending, label: edge.pending ? `pending · changesSince ${edge.acked}` : `idle at ${edge.acked}` },
      classes: edge.pending ? 'pending' : '',
    }));
    const key = JSON.stringify([nodes.map((n) => n.data.id), edges.map((e) => e.data.id), container.clientWidth]);
    if (key === layoutKey) {
      for (const element of [...nodes, ...edges]) cy.getElementById(element.data.id).data(element.data).classes(element.classes);
      return;
    }
    layoutKey = key;
    cy.batch(() => {
      cy.elements().remove();
      cy.add([...nodes, ...edges]);
    });
    const placed = positions(groupsOf(graph));
    cy.layout({ name: 'preset', positions: (node) => placed[node.id()], fit: true, padding: 24 }).run();
    if (cy.zoom() > FIT_MAX_ZOOM) {
      cy.zoom(FIT_MAX_ZOOM);
      cy.center();
    }
    const selected = cy.getElementById(selectedId || '');
    if (selected.nonempty()) selected.select();
  }

  return { cy, draw };
};
