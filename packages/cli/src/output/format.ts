// Plain-text output helpers: a tiny column formatter for tables and short renderings of events.
import type { SessionEvent } from '@session-state/domain';

/** A table column: its header, its cell in a row, and whether numbers line up on the right. */
type Column<R> = { readonly header: string; readonly cell: (row: R) => string | number; readonly right?: boolean };

/**
 * Lays out rows under their headers, columns separated by two spaces, trailing blanks trimmed.
 *
 * @example table([{ header: 'key', cell: (r) => r.key }, { header: 'version', cell: (r) => r.version, right: true }], rows)
 */
export function table<R>(columns: readonly Column<R>[], rows: readonly R[]): string[] {
  const lines = [columns.map((column) => column.header), ...rows.map((row) => columns.map((column) => String(column.cell(row))))];
  const widths = columns.map((_, i) => Math.max(...lines.map((cells) => (cells[i] ?? '').length)));
  return lines.map((cells) => cells.map((cell, i) => (columns[i]?.right === true ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0))).join('  ').trimEnd());
}

/** An actor as `human`, or `agent agent:main:main` when the causing session is known. */
export const actorLabel = (event: SessionEvent): string => (event.actorSessionKey === undefined ? event.actorType : `${event.actorType} ${event.actorSessionKey}`);

/** The compact JSON of a payload, or an empty cell when there is none. */
export const payloadLabel = (payload: SessionEvent['payload']): string => (payload === undefined ? '' : JSON.stringify(payload));

export function eventTable(events: readonly SessionEvent[]): string[] {
  return table<SessionEvent>(
    [
      { header: 'seq', cell: (event) => event.sequence, right: true },
      { header: 'kind', cell: (event) => event.kind },
      { header: 'actor', cell: actorLabel },
      { header: 'summary', cell: (event) => event.summary },
      { header: 'payload', cell: (event) => payloadLabel(event.payload) },
      { header: 'occurredAt', cell: (event) => event.occurredAt },
    ],
    events,
  );
}

/** `1 event`, `3 events`. */
export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
