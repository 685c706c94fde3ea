// The inspector page's script: draws the overview the server pushes over server-sent events (the
// watch graph with cytoscape, the store counts, the pending notices), and the selected session's
// timeline and the selected pair's cursor history from the JSON endpoints, re-read on every push.
// Plain browser JavaScript, no build step. Text from the store is only ever set as textContent.
'use strict';

(function inspectorPage() {
  // --- state -------------------------------------------------------------------------------------

  const state = { version: 0, overview: undefined, session: undefined, pair: undefined, layoutKey: '' };
  const KIND_COLOURS = { notify: '#d9480f', seed: '#1f8a4c', log: '#8a93a6' };

  // --- small DOM helpers ---------------------------------------------------------------------------

  function byId(id) {
    return document.getElementById(id);
  }

  /** An element with text content and optional class. */
  function el(tag, text, className) {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = String(text);
    if (className !== undefined) node.className = className;
    return node;
  }

  function svgEl(tag, attributes) {
    const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
    return node;
  }

  function setStatus(text, kind) {
    const status = byId('live-status');
    status.textContent = text;
    status.className = `status ${kind}`;
  }

  async function getJson(url) {
    const response = await fetch(url, { cache: 'no-store' });
    const body = await response.json();
    if (!response.ok) throw new Error(body.error || `${response.status}`);
    return body;
  }

  // --- the graph -------------------------------------------------------------------------------------

  const cy = cytoscape({
    container: byId('graph'),
    minZoom: 0.2,
    maxZoom: 1.6,
    style: [
      { selector: 'node', style: { label: 'data(label)', 'font-size': 10, 'text-wrap': 'wrap', 'text-max-width': 150, 'text-valign': 'bottom', 'text-margin-y': 4, color: '#1d2330' } },
      { selector: 'node.session', style: { 'background-color': '#2f6fdd', width: 26, height: 26 } },
      { selector: 'node.nested', style: { 'background-color': '#8a4fd8', shape: 'round-rectangle', 'border-width': 2, 'border-style': 'dashed', 'border-color': '#4a2a80' } },
      { selector: 'node.agent', style: { 'background-color': '#eef2fa', 'background-opacity': 0.6, 'border-color': '#b9c3d8', 'border-width': 1, shape: 'round-rectangle', 'text-valign': 'top', 'text-margin-y': -4, 'font-weight': 'bold', color: '#46506a', padding: 18 } },
      { selector: 'node:selected', style: { 'border-width': 3, 'border-color': '#f2b705', 'border-style': 'solid' } },
      { selector: 'edge', style: { width: 2, 'line-color': '#9aa3b5', 'target-arrow-color': '#9aa3b5', 'target-arrow-shape': 'triangle', 'curve-style': 'bezier', label: 'data(label)', 'font-size': 9, color: '#46506a', 'text-background-color': '#fff', 'text-background-opacity': 0.85, 'text-rotation': 'autorotate' } },
      { selector: 'edge.pending', style: { width: 4, 'line-color': '#d9480f', 'target-arrow-color': '#d9480f', color: '#b03a0c', 'font-weight': 'bold' } },
      { selector: 'edge:selected', style: { 'line-style': 'dashed', 'overlay-opacity': 0.12, 'overlay-color': '#f2b705' } },
    ],
  });

  function graphElements(graph) {
    const nodes = [
      ...graph.agents.map((agent) => ({ group: 'nodes', data: { id: agent.id, label: `agent ${agent.agentId}`, kind: 'agent' }, classes: 'agent' })),
      ...graph.sessions.map((session) => ({
        group: 'nodes',
        data: {
          id: session.id,
          label: session.head > 0 ? `${session.id}\nv${session.head}` : session.id,
          kind: 'session',
          nested: session.nested,
          head: session.head,
          pruneWatermark: session.pruneWatermark,
          ...(session.parent !== undefined ? { parent: session.parent } : {}),
        },
        classes: session.nested ? 'session nested' : 'session',
      })),
    ];
    const edges = graph.edges.map((edge) => ({
      group: 'edges',
      data: {
        id: edge.id,
        source: edge.source,
        target: edge.target,
        pending: edge.pending,
        acked: edge.acked,
        notified: edge.notified,
        material: edge.material,
        label: edge.pending ? `pending · changesSince ${edge.acked}` : `idle at ${edge.acked}`,
      },
      classes: edge.pending ? 'pending' : '',
    }));
    return { nodes, edges };
  }

  /**
   * Where each session sits: one column per agent (its box), main sessions first, then nested
   * sub-agents indented below them; keys that are not agent-qualified in a last column.
   * Deterministic, so the same store always draws the same picture.
   */
  function sessionPositions(graph) {
    const columns = new Map(graph.agents.map((agent) => [agent.id, []]));
    columns.set('', []);
    for (const session of graph.sessions) columns.get(session.parent === undefined ? '' : session.parent).push(session);
    const positions = {};
    let column = 0;
    for (const sessions of columns.values()) {
      if (sessions.length === 0) continue;
      const ordered = [...sessions.filter((s) => !s.nested), ...sessions.filter((s) => s.nested)];
      ordered.forEach((session, row) => {
        positions[session.id] = { x: column * 360 + (session.nested ? 110 : 0), y: row * 120 };
      });
      column += 1;
    }
    return positions;
  }

  /** Replaces the graph's elements; lays it out again only when the set of elements changed. */
  function drawGraph(graph) {
    const { nodes, edges } = graphElements(graph);
    const layoutKey = JSON.stringify([nodes.map((n) => [n.data.id, n.data.parent]), edges.map((e) => e.data.id)]);
    if (layoutKey === state.layoutKey) {
      for (const element of [...nodes, ...edges]) {
        const existing = cy.getElementById(element.data.id);
        existing.data(element.data);
        existing.classes(element.classes);
      }
      return;
    }
    state.layoutKey = layoutKey;
    cy.batch(() => {
      cy.elements().remove();
      cy.add([...nodes, ...edges]);
    });
    const positions = sessionPositions(graph);
    cy.layout({ name: 'preset', positions: (node) => positions[node.id()], fit: true, padding: 30 }).run();
    const selected = state.pair !== undefined ? cy.getElementById(`${state.pair.watcher} -> ${state.pair.target}`) : cy.getElementById(state.session || '');
    if (selected.nonempty()) selected.select();
  }

  cy.on('tap', 'node.session', (event) => {
    state.session = event.target.id();
    void loadTimeline();
  });
  cy.on('tap', 'edge', (event) => {
    state.pair = { watcher: event.target.data('source'), target: event.target.data('target') };
    state.session = event.target.data('target');
    void loadPair();
    void loadTimeline();
  });

  // --- counts, notices, metrics ------------------------------------------------------------------------

  const COUNT_LABELS = [
    ['sessions', 'sessions logged'],
    ['cursors', 'cursors'],
    ['pendingPairs', 'pending pairs'],
    ['pendingNotices', 'held notices'],
    ['journalEntries', 'journal entries'],
    ['highestHead', 'highest head'],
    ['prunedSessions', 'pruned sessions'],
  ];

  function drawCounts(counts) {
    const list = byId('counts');
    list.replaceChildren();
    for (const [key, label] of COUNT_LABELS) {
      list.append(el('dt', label));
      const value = el('dd', counts[key]);
      value.dataset.count = key;
      list.append(value);
    }
  }

  function drawNotices(notices) {
    byId('notice-count').textContent = `${notices.length}`;
    const list = byId('notices');
    list.replaceChildren();
    if (notices.length === 0) list.append(el('li', 'none: every cursor is idle', 'muted'));
    for (const notice of notices) {
      const item = el('li');
      item.dataset.watcher = notice.watcher;
      item.dataset.target = notice.target;
      item.append(el('div', `${notice.watcher} → ${notice.target} (frozen at ${notice.notified})`));
      item.append(el('code', notice.text));
      list.append(item);
    }
  }

  async function loadMetrics() {
    const pre = byId('metrics-text');
    try {
      const response = await fetch('/metrics', { cache: 'no-store' });
      pre.textContent = await response.text();
      pre.className = response.ok ? '' : 'muted';
    } catch (error) {
      pre.textContent = `cannot read /metrics: ${error.message}`;
    }
  }

  // --- the pair's cursor history --------------------------------------------------------------------------

  async function loadPair() {
    const pair = state.pair;
    if (pair === undefined) return;
    const box = byId('pair');
    byId('pair-name').textContent = `${pair.watcher} → ${pair.target}`;
    let explanation;
    try {
      explanation = await getJson(`/api/pair?watcher=${encodeURIComponent(pair.watcher)}&target=${encodeURIComponent(pair.target)}`);
    } catch (error) {
      box.replaceChildren(el('p', `cannot read the journal: ${error.message}`, 'muted'));
      return;
    }
    if (state.pair !== pair) return;
    const list = el('ol');
    for (const step of explanation.steps) {
      const item = el('li');
      item.append(el('div', `#${step.position} ${step.time} ${step.text}`));
      item.append(el('div', `acked ${step.acked} · notified ${step.notified} · material ${step.material}`, 'watermarks'));
      list.append(item);
    }
    const closing = explanation.lines[explanation.lines.length - 1];
    box.replaceChildren(
      el('p', `${explanation.status}${explanation.truncated ? ' (retention removed the start of this history)' : ''}`, 'muted'),
      list,
      el('p', closing, 'muted'),
    );
    box.dataset.steps = String(explanation.steps.length);
  }

  // --- the session's timeline ------------------------------------------------------------------------------

  function drawTimelineChart(timeline) {
    const rows = timeline.actors.length > 0 ? timeline.actors : ['(no retained events)'];
    const width = 1000;
    const left = 230;
    const right = 30;
    const rowHeight = 26;
    const top = 26;
    const height = top + rows.length * rowHeight + 20;
    const low = Math.min(timeline.pruneWatermark, ...timeline.events.map((event) => event.sequence), timeline.head);
    const high = Math.max(timeline.head, low + 1);
    const x = (sequence) => left + ((sequence - low) / (high - low)) * (width - left - right);
    const svg = svgEl('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img' });
    rows.forEach((actor, index) => {
      const y = top + index * rowHeight + rowHeight / 2;
      svg.append(svgEl('line', { x1: left, x2: width - right, y1: y, y2: y, stroke: '#eef1f5' }));
      const label = svgEl('text', { x: left - 8, y: y + 4, 'text-anchor': 'end', 'font-size': 11, fill: '#46506a' });
      label.textContent = actor;
      svg.append(label);
    });
    const marker = (sequence, text, colour) => {
      svg.append(svgEl('line', { x1: x(sequence), x2: x(sequence), y1: top - 6, y2: height - 14, stroke: colour, 'stroke-dasharray': '4 3' }));
      const label = svgEl('text', { x: x(sequence), y: top - 10, 'text-anchor': 'middle', 'font-size': 10, fill: colour });
      label.textContent = text;
      svg.append(label);
    };
    if (timeline.pruneWatermark > 0) marker(timeline.pruneWatermark, `prune watermark ${timeline.pruneWatermark}`, '#b42318');
    marker(timeline.head, `head ${timeline.head}`, '#1d2330');
    for (const event of timeline.events) {
      const y = top + rows.indexOf(event.actor) * rowHeight + rowHeight / 2;
      const dot = svgEl('circle', { cx: x(event.sequence), cy: y, r: 6, fill: KIND_COLOURS[event.kindClass] || '#8a93a6', 'data-sequence': event.sequence });
      const title = svgEl('title', {});
      title.textContent = `#${event.sequence} ${event.kind}: ${event.summary}`;
      dot.append(title);
      svg.append(dot);
    }
    byId('timeline-chart').replaceChildren(svg);
  }

  function drawTimelineTable(timeline) {
    const body = byId('timeline-table').tBodies[0];
    body.replaceChildren();
    if (timeline.historyGap) {
      const row = el('tr');
      const cell = el('td', `history gap: events up to #${timeline.pruneWatermark} were pruned`, 'muted');
      cell.colSpan = 5;
      row.append(cell);
      body.append(row);
    }
    for (const event of timeline.events) {
      const row = el('tr');
      row.dataset.sequence = String(event.sequence);
      row.append(el('td', event.sequence), el('td', event.occurredAt), el('td', event.kind, `kind-${event.kindClass}`), el('td', event.actor), el('td', event.summary));
      body.append(row);
    }
  }

  async function loadTimeline() {
    const session = state.session;
    if (session === undefined) return;
    let timeline;
    try {
      timeline = await getJson(`/api/timeline?session=${encodeURIComponent(session)}`);
    } catch (error) {
      byId('timeline-chart').replaceChildren(el('p', `cannot read the timeline: ${error.message}`, 'muted'));
      return;
    }
    if (state.session !== session) return;
    byId('timeline-name').textContent = `${session} · head ${timeline.head} · prune watermark ${timeline.pruneWatermark}${timeline.hasMore ? ' · more follow' : ''}`;
    drawTimelineChart(timeline);
    drawTimelineTable(timeline);
    byId('timeline-panel').dataset.head = String(timeline.head);
  }

  // --- an update -------------------------------------------------------------------------------------------

  /** The defaults before the operator picks: the first pending pair, and the session with the highest head. */
  function chooseDefaults(graph) {
    if (state.pair === undefined) {
      const edge = graph.edges.find((e) => e.pending) || graph.edges[0];
      if (edge !== undefined) state.pair = { watcher: edge.source, target: edge.target };
    }
    if (state.session === undefined) {
      const busiest = [...graph.sessions].sort((a, b) => b.head - a.head)[0];
      if (busiest !== undefined) state.session = busiest.id;
    }
  }

  async function apply(update) {
    if (update.version <= state.version) return;
    state.version = update.version;
    state.overview = update.overview;
    byId('version').textContent = `update ${update.version} · ${new Date().toLocaleTimeString()}`;
    if (update.error !== undefined) setStatus(`store read failed: ${update.error}`, 'failed');
    else setStatus('live', 'live');
    chooseDefaults(update.overview.graph);
    drawGraph(update.overview.graph);
    drawCounts(update.overview.counts);
    drawNotices(update.overview.notices);
    await Promise.all([loadTimeline(), loadPair(), loadMetrics()]);
    // What a test (or a curious operator) waits on: the update fully drawn.
    document.body.dataset.version = String(update.version);
  }

  function connect() {
    const source = new EventSource('/api/events');
    source.addEventListener('overview', (message) => {
      void apply(JSON.parse(message.data));
    });
    source.addEventListener('open', () => setStatus('live', 'live'));
    source.addEventListener('error', () => setStatus('connection lost, retrying…', 'lost'));
  }

  window.inspector = { cy, state };
  void getJson('/api/overview').then((overview) => {
    byId('store-label').textContent = overview.label;
    document.title = `session-state inspector · ${overview.label}`;
  });
  connect();
})();
