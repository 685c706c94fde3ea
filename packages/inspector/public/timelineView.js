// The timeline of one session on the inspector page: one row per actor with its events as dots
// coloured by kind class, the prune watermark and the head marked, and the events as a table.
// Plain browser JavaScript, no build step. Text from the store is only ever set as textContent.
'use strict';

window.createTimelineView = function createTimelineView({ el, svgEl, chart, table }) {
  const KIND_COLOURS = { notify: '#d9480f', seed: '#1f8a4c', log: '#8a93a6' };

  function drawTimelineChart(timeline) {
    const rows = timeline.actors.length > 0 ? timeline.actors : ['(no retained events)'];
    const width = Math.max(600, chart.clientWidth || 1000);
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
      svg.append(svgEl('line', { x1: left, x2: width - right, y1: y, y2: y, stroke: '#eef1f5' }), svgEl('text', { x: left - 8, y: y + 4, 'text-anchor': 'end', 'font-size': 11, fill: '#46506a' }, actor));
    });
    const marker = (sequence, text, colour) => {
      svg.append(svgEl('line', { x1: x(sequence), x2: x(sequence), y1: top - 6, y2: height - 14, stroke: colour, 'stroke-dasharray': '4 3' }), svgEl('text', { x: x(sequence), y: top - 10, 'text-anchor': 'middle', 'font-size': 10, fill: colour }, text));
    };
    if (timeline.pruneWatermark > 0) marker(timeline.pruneWatermark, `prune watermark ${timeline.pruneWatermark}`, '#b42318');
    marker(timeline.head, `head ${timeline.head}`, '#1d2330');
    for (const event of timeline.events) {
      const y = top + rows.indexOf(event.actor) * rowHeight + rowHeight / 2;
      const dot = svgEl('circle', { cx: x(event.sequence), cy: y, r: 6, fill: KIND_COLOURS[event.kindClass] || '#8a93a6', 'data-sequence': event.sequence });
      dot.append(svgEl('title', {}, `#${event.sequence} ${event.kind}: ${event.summary}`));
      svg.append(dot);
    }
    chart.replaceChildren(svg);
  }

  function drawTimelineTable(timeline) {
    const body = table.tBodies[0];
    body.replaceChildren();
    if (timeline.historyGap) {
      const row = el('tr');
      row.append(Object.assign(el('td', `history gap: events up to #${timeline.pruneWatermark} were pruned`, 'muted'), { colSpan: 5 }));
      body.append(row);
    }
    for (const event of timeline.events) {
      const row = el('tr', undefined, undefined, { sequence: event.sequence });
      row.append(el('td', event.sequence), el('td', event.occurredAt), el('td', event.kind, `kind-${event.kindClass}`), el('td', event.actor), el('td', event.summary));
      body.append(row);
    }
  }

  return { drawTimelineChart, drawTimelineTable };
};
