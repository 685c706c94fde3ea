// The overview event stream (/api/events, server-sent events) with a bound on what one stream
// holds: one frame in flight and at most one waiting. A client that stops reading (a suspended
// laptop, a stuck proxy) stops the writes once its socket is full; while it is, each newer overview
// replaces the waiting one, so the stream catches up with the latest, never with every version.
import type { ServerResponse } from 'node:http';

import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';

import type { LiveOverview, OverviewFrame } from './liveOverview.js';

/** How soon a page's EventSource retries after the stream ends (a restarted inspector), in milliseconds. */
const RETRY_MS = 1000;

/**
 * Builds the event stream route over `live` (`handler`); `endAll` ends every open stream, `backlog`
 * tells what each holds at this moment: `frames` handed to the stream and not yet taken by the
 * socket (at most 2: one in flight, one waiting), `socketBytes` the socket has accepted and not yet sent.
 */
export function eventStreams(live: LiveOverview) {
  const open = new Map<() => void, () => { frames: number; socketBytes: number }>();

  const handler = (c: Context): Response | Promise<Response> =>
    streamSSE(c, async (stream) => {
      const ending = new AbortController();
      const end = (): void => ending.abort();
      const ended = new Promise((resolve) => ending.signal.addEventListener('abort', resolve, { once: true }));
      let inFlight = false;
      let waiting: OverviewFrame | undefined;
      let retry = true;
      const socket = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
      const pump = async (): Promise<void> => {
        inFlight = true;
        while (waiting !== undefined && !ending.signal.aborted) {
          const frame = waiting;
          waiting = undefined;
          const message = { event: 'overview', id: String(frame.update.version), data: frame.data, ...(retry ? { retry: RETRY_MS } : {}) };
          retry = false;
          await stream.writeSSE(message).catch(end);
        }
        inFlight = false;
      };
      const send = (frame: OverviewFrame): void => {
        waiting = frame;
        if (!inFlight) void pump();
      };
      open.set(end, () => ({ frames: (inFlight ? 1 : 0) + (waiting === undefined ? 0 : 1), socketBytes: socket?.writableLength ?? 0 }));
      stream.onAbort(end);
      const unsubscribe = live.subscribe(send);
      try {
        send(await live.current());
        await ended;
      } finally {
        unsubscribe();
        open.delete(end);
      }
    });

  return {
    handler,
    endAll: (): void => {
      for (const end of open.keys()) end();
    },
    backlog: () => [...open.values()].map((read) => read()),
  };
}
