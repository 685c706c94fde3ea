// Running the inspector in a test: a change source the test fires by hand, the JSON endpoints
// fetched, and the event stream read message by message.
import type { ChangeSource } from '../../src/changes.js';
import type { OverviewUpdate } from '../../src/liveOverview.js';

/** A change source that reports a change only when the test calls `fire`. */
export function manualChanges(): { readonly source: ChangeSource; readonly fire: () => void } {
  let changed: () => void = () => undefined;
  return {
    source: (listener) => {
      changed = listener;
      return Promise.resolve({
        close: () => {
          changed = () => undefined;
          return Promise.resolve();
        },
      });
    },
    fire: () => changed(),
  };
}

/** GETs `path` under `base` and parses the JSON body, with the status. */
export async function getJson<T>(base: string, path: string): Promise<{ readonly status: number; readonly body: T }> {
  const response = await fetch(new URL(path, base));
  return { status: response.status, body: (await response.json()) as T };
}

/** The overview event stream: `next()` resolves with the next pushed update; `close()` hangs up. */
export interface EventStreamReader {
  next(): Promise<OverviewUpdate>;
  close(): void;
}

/** Opens `/api/events` and reads its `overview` messages. */
export async function openEventStream(base: string): Promise<EventStreamReader> {
  const abort = new AbortController();
  const response = await fetch(new URL('/api/events', base), { signal: abort.signal });
  if (response.body === null) throw new Error('the event stream has no body');
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const queued: OverviewUpdate[] = [];
  return {
    next: async () => {
      for (;;) {
        const update = queued.shift();
        if (update !== undefined) return update;
        const { done, value } = await reader.read();
        if (done) throw new Error('the event stream ended');
        buffer += decoder.decode(value, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = message.split('\n');
          if (lines.includes('event: overview')) {
            const data = lines.filter((line) => line.startsWith('data: ')).map((line) => line.slice('data: '.length)).join('\n');
            queued.push(JSON.parse(data) as OverviewUpdate);
          }
          end = buffer.indexOf('\n\n');
        }
      }
    },
    close: () => abort.abort(),
  };
}
