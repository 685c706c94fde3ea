// Plain-text output helpers: a tiny column formatter for tables and short renderings of events.
import type { SessionEvent } from '@session-state/domain';

/** A table column: its header and whether numbers line up on the right. */
export interface Column {
  readonly header: string;
  readonly align?: 'left' | 'right';
}

/**
 * Lays out rows under their headers, columns separated by two spaces, trailing blanks trimmed.
 *
 * @example table([{ header: 'key' }, { header: 'version', align: 'right' }], [['a', '3']])
 */
export function table(columns: readonly Column[], rows: readonly (readonly string[])[]): string[] {
  const widths = columns.map((column, i) =>
    Math.max(column.header.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const line = (cells: readonly string[]): string =>
    columns
      .map((column, i) => {
        const cell = cells[i] ?? '';
        const width = widths[i] ?? cell.length;
        return column.align === 'right' ? cell.padStart(width) : cell.padEnd(width);
      })
      .join('  ')
      .trimEnd();
  return [line(columns.map((column) => column.header)), ...rows.map(line)];
}

/** An actor as `human`, or `agent agent:main:main` when the causing session is known. */
export function actorLabel(event: Pick<SessionEvent, 'actorType' | 'actorSessionKey'>): string {
  return event.actorSessionKey === undefined ? event.actorType : `${event.actorType} ${event.actorSessionKey}`;
}

/** The compact JSON of a payload, or an empty cell when there is none. */
export function payloadLabel(payload: SessionEvent['payload']): string {
  return payload === undefined ? '' : JSON.stringify(payload);
}

/** The rows of an events table: sequence, kind, actor, summary, payload, occurredAt. */
export function eventTable(events: readonly SessionEvent[]): string[] {
  return table(
    [
      { header: 'seq', align: 'right' },
      { header: 'kind' },
      { header: 'actor' },
      { header: 'summary' },
      { header: 'payload' },
      { header: 'occurredAt' },
    ],
    events.map((event) => [
      String(event.sequence),
      event.kind,
      actorLabel(event),
      event.summary,
      payloadLabel(event.payload),
      event.occurredAt,
    ]),
  );
}

/** `1 event`, `3 events`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Epoch milliseconds as an ISO string. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
