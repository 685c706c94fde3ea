// The inspector page's script: draws the overview the server pushes over server-sent events (the
// watch graph, the store counts, the pending notices), narrowed by the operator's search, agent and
// "pending only" filters, and the selected session's timeline and the selected pair's cursor
// history from the JSON endpoints, re-read on every push. Plain browser JavaScript, no build step.
// Text from the store is only ever set as textContent.
'use strict';

(function inspectorPage() {
  // `run` is the server run the versions count in: a restarted server starts again from 1.
  const state = { run: undefined, version: 0, overview: undefined, session: undefined, pair: undefined, picked: false };
  const NOTICES_SHOWN = 12;
  const NOTICES_FOLDED_ABOVE = 6;

  const byId = (id) => document.getElementById(id);

  /** An element with text content, and optionally a class and data attributes. */
  function el(tag, text, className, data = {}) {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = String(text);
    if (className !== undefined) node.className = className;
    Object.assign(node.dataset, data);
    return node;
  }

  /** An SVG element with attributes and optional text content. */
  function svgEl(tag, attributes, text) {
    const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
    if (text !== undefined) node.textContent = String(text);
    return node;
  }

  const setStatus = (text, kind) => Object.assign(byId('live-status'), { textContent: text, className: `status ${kind}` });

  async function getJson(url) {
    const response = await fetch(url, { cache: 'no-store' });
    const body = await response.json();
    if (!response.ok) throw new Error(body.error || `${response.status}`);
    return body;
  }

  /** The JSON at `url`, or undefined once `box` says why `what` cannot be read. */
  const readInto = (url, box, what) => getJson(url).catch((error) => void box.replaceChildren(el('p', `cannot read ${what}: ${error.message}`, 'muted')));

  const graphView = window.createGraphView(byId('graph'));
  const timelineView = window.createTimelineView({ el, svgEl, chart: byId('timeline-chart'), table: byId('timeline-table') });
  const cy = graphView.cy;

  const filters = () => ({ text: byId('search').value.trim().toLowerCase(), agent: byId('agent-filter').value, pendingOnly: byId('pending-only').checked });

  /**
   * The graph narrowed to what the filters keep: sessions matching the search (or at an end of a
   * cursor with one that does), of the chosen agent, at an end of a pending pair when asked; the
   * cursors between kept sessions; the agent boxes still holding one.
   */
  function filteredGraph(graph) {
    const { text, agent, pendingOnly } = filters();
    const matches = new Set(text === '' ? [] : graph.sessions.filter((s) => s.id.toLowerCase().includes(text)).map((s) => s.id));
    const pendingEnds = new Set(graph.edges.filter((e) => e.pending).flatMap((e) => [e.source, e.target]));
    const near = new Set(matches);
    for (const edge of graph.edges) {
      if (matches.has(edge.source)) near.add(edge.target);
      if (matches.has(edge.target)) near.add(edge.source);
    }
    const sessions = graph.sessions.filter(
      (s) => (text === '' || near.has(s.id)) && (agent === '' || s.parent === agent) && (!pendingOnly || pendingEnds.has(s.id)),
    );
    const kept = new Set(sessions.map((s) => s.id));
    const edges = graph.edges.filter((e) => kept.has(e.source) && kept.has(e.target) && (!pendingOnly || e.pending));
    const boxes = new Set(sessions.map((s) => s.parent));
    return { graph: { sessions, edges, agents: graph.agents.filter((a) => boxes.has(a.id)) }, matches, kept };
  }

  /** The agent menu: every agent box with its session count, keeping the choice. */
  function drawAgentMenu(graph) {
    const menu = byId('agent-filter');
    const chosen = menu.value;
    const counts = new Map();
    for (const s of graph.sessions) if (s.parent !== undefined) counts.set(s.parent, (counts.get(s.parent) || 0) + 1);
    const option = (value, text) => Object.assign(el('option', text), { value });
    menu.replaceChildren(option('', `all agents (${graph.agents.length})`), ...graph.agents.map((agent) => option(agent.id, `${agent.agentId} (${counts.get(agent.id) || 0})`)));
    menu.value = graph.agents.some((a) => a.id === chosen) ? chosen : '';
  }

  function redraw() {
    const overview = state.overview;
    if (overview === undefined) return;
    const { graph, matches, kept } = filteredGraph(overview.graph);
    const selected = state.pair !== undefined ? `${state.pair.watcher} -> ${state.pair.target}` : state.session;
    graphView.draw(graph, matches, selected);
    const total = overview.counts.sessions;
    byId('graph-note').textContent =
      `${graph.sessions.length} of ${overview.graph.sessions.length} drawn sessions shown` + (overview.truncated ? ` · the store holds ${total}; pending pairs are drawn first` : '');
    drawNotices(overview.notices, kept, overview.counts.pendingNotices);
  }

  for (const id of ['search', 'agent-filter', 'pending-only']) byId(id).addEventListener('input', redraw);
  byId('notices-box').querySelector('summary').addEventListener('click', () => {
    byId('notices-box').dataset.touched = 'yes';
  });
  byId('search').addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' || state.overview === undefined) return;
    const first = filteredGraph(state.overview.graph).graph.sessions.find((s) => s.id.toLowerCase().includes(filters().text));
    if (first !== undefined) pickSession(first.id);
  });

  function pickSession(id) {
    state.session = id;
    state.picked = true;
    void loadTimeline();
  }

  function pickPair(watcher, target) {
    state.pair = { watcher, target };
    pickSession(target);
    void loadPair();
  }

  cy.on('tap', 'node.session', (event) => pickSession(event.target.id()));
  cy.on('tap', 'edge', (event) => pickPair(event.target.data('source'), event.target.data('target')));

  const COUNT_LABELS = { sessions: 'sessions logged', cursors: 'cursors', pendingPairs: 'pending pairs', pendingNotices: 'held notices', highestHead: 'highest head', prunedSessions: 'pruned sessions' };

  function drawCounts(counts) {
    byId('counts').replaceChildren(...Object.entries(COUNT_LABELS).flatMap(([key, label]) => [el('dt', label), el('dd', counts[key], undefined, { count: key })]));
  }

  /** The held notices of the shown sessions, the first NOTICES_SHOWN of them; the box folds. */
  function drawNotices(notices, kept, total) {
    const shown = notices.filter((n) => kept.has(n.watcher) || kept.has(n.target));
    byId('notice-count').textContent = shown.length === total ? `${total}` : `${shown.length} shown of ${total}`;
    const list = byId('notices');
    list.replaceChildren();
    if (shown.length === 0) list.append(el('li', total === 0 ? 'none: every cursor is idle' : 'none among the sessions shown', 'muted'));
    for (const notice of shown.slice(0, NOTICES_SHOWN)) {
      const item = el('li', undefined, undefined, { watcher: notice.watcher, target: notice.target });
      item.append(el('div', `${notice.watcher} → ${notice.target} (frozen at ${notice.notified})`), el('code', notice.text));
      item.addEventListener('click', () => pickPair(notice.watcher, notice.target));
      list.append(item);
    }
    // A long list starts folded; after that the operator's choice stands.
    const box = byId('notices-box');
    if (box.dataset.touched === undefined) box.open = total <= NOTICES_FOLDED_ABOVE;
    if (shown.length > NOTICES_SHOWN) list.append(el('li', `… ${shown.length - NOTICES_SHOWN} more: narrow with the search or the agent menu`, 'muted'));
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

  async function loadPair() {
    const pair = state.pair;
    if (pair === undefined) return;
    const box = byId('pair');
    byId('pair-name').textContent = `${pair.watcher} → ${pair.target}`;
    const explanation = await readInto(`/api/pair?watcher=${encodeURIComponent(pair.watcher)}&target=${encodeURIComponent(pair.target)}`, box, 'the journal');
    if (explanation === undefined || state.pair !== pair) return;
    const list = el('ol');
    for (const step of explanation.steps) {
      const item = el('li');
      item.append(el('div', `#${step.position} ${step.time} ${step.text}`), el('div', `acked ${step.acked} · notified ${step.notified} · material ${step.material}`, 'watermarks'));
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

  async function loadTimeline() {
    const session = state.session;
    if (session === undefined) return;
    const timeline = await readInto(`/api/timeline?session=${encodeURIComponent(session)}`, byId('timeline-chart'), 'the timeline');
    if (timeline === undefined || state.session !== session) return;
    byId('timeline-name').textContent = `${session} · head ${timeline.head} · prune watermark ${timeline.pruneWatermark}${timeline.hasMore ? ' · more follow' : ''}`;
    timelineView.drawTimelineChart(timeline);
    timelineView.drawTimelineTable(timeline);
    byId('timeline-panel').dataset.head = String(timeline.head);
  }

  /**
   * The defaults until the operator picks: the most recently touched pending pair (else any
   * pair), and for the timeline its target, never the shared `global` log when another session
   * exists.
   */
  function chooseDefaults(graph) {
    const latest = (edges) => [...edges].sort((a, b) => b.touchedAt - a.touchedAt).find((e) => e.target !== 'global');
    const edge = latest(graph.edges.filter((e) => e.pending)) || latest(graph.edges);
    if (state.pair === undefined && edge !== undefined) state.pair = { watcher: edge.source, target: edge.target };
    if (!state.picked) {
      const fallback = graph.sessions.find((s) => s.id !== 'global' && s.head > 0) || graph.sessions[0];
      const session = edge !== undefined ? edge.target : fallback && fallback.id;
      if (session !== undefined) state.session = session;
    }
  }

  async function apply(update) {
    if (update.run !== state.run) {
      state.run = update.run;
      state.version = 0;
    }
    if (update.version <= state.version) return;
    state.version = update.version;
    state.overview = update.overview;
    byId('version').textContent = `update ${update.version} · ${new Date().toLocaleTimeString()}`;
    if (update.error !== undefined) setStatus(`store read failed: ${update.error}`, 'failed');
    else setStatus('live', 'live');
    chooseDefaults(update.overview.graph);
    drawAgentMenu(update.overview.graph);
    redraw();
    drawCounts(update.overview.counts);
    await Promise.all([loadTimeline(), loadPair(), loadMetrics()]);
    // What a test (or an operator) waits on: the update fully drawn, never an older one after a newer.
    if (state.run === update.run && state.version === update.version) Object.assign(document.body.dataset, { version: String(update.version), run: update.run });
  }

  window.inspector = { cy, state };
  void getJson('/api/overview').then((overview) => {
    byId('store-label').textContent = overview.label;
    document.title = `session-state inspector · ${overview.label}`;
  });
  const source = new EventSource('/api/events');
  source.addEventListener('overview', (message) => void apply(JSON.parse(message.data)));
  source.addEventListener('open', () => {
    // A new connection may reach a restarted server: its first frame is drawn whatever its number.
    state.version = 0;
    setStatus('live', 'live');
  });
  source.addEventListener('error', () => setStatus('connection lost, retrying…', 'lost'));
})();
