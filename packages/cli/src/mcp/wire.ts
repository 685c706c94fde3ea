// The stdio wire under the SDK's `serveStdio`: the SDK's own stdio transport, fed from standard input through a
// stream that does not end with it (the SDK's would close at once and drop the answers still owed), that knows which
// requests are unanswered, tells the subscriptions of the `subscriptions/listen` streams the SDK serves itself, and
// tells when each request ended: its answer written, or not (cancelled, or the write failed).
import { PassThrough, type Readable, type Writable } from 'node:stream';

import { isJSONRPCNotification, isJSONRPCRequest, isJSONRPCResponse, SUBSCRIPTION_ID_META_KEY } from '@modelcontextprotocol/server';
import type { JSONRPCMessage, RequestId, SubscriptionFilter, Transport } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

import type { Subscriptions } from './subscriptions.js';

export type Wire = Transport & { readonly answered: () => Promise<void> };

/** What the wire tells: a listen stream opened, and a request ended (`written`: its answer went to stdout). */
export interface WireEvents {
  readonly listen: Subscriptions['listen'];
  readonly ended: (id: RequestId, written: boolean) => void;
}

/** The wire over `stdin` and `stdout`; `closed` is called when the SDK's transport closed by itself. */
export function createWire(stdin: Readable, stdout: Writable, events: WireEvents, closed: () => void): Wire {
  const input = new PassThrough();
  stdin.pipe(input, { end: false });
  const inner = new StdioServerTransport(input, stdout);
  // Requests not answered yet: a listen stream is answered only when it ends, so it is not among them.
  const unanswered = new Set<RequestId>();
  let whenAnswered: (() => void)[] = [];
  const settle = (id: RequestId): void => {
    unanswered.delete(id);
    if (unanswered.size > 0) return;
    for (const resolve of whenAnswered) resolve();
    whenAnswered = [];
  };

  const wire: Wire = {
    start() {
      inner.onclose = () => {
        closed();
        wire.onclose?.();
      };
      inner.onerror = (error) => wire.onerror?.(error);
      inner.onmessage = (message: JSONRPCMessage) => {
        if (isJSONRPCRequest(message) && message.method !== 'subscriptions/listen') unanswered.add(message.id);
        if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
          const id = message.params?.['requestId'] as RequestId | undefined;
          if (id !== undefined) {
            settle(id);
            events.ended(id, false);
          }
        }
        wire.onmessage?.(message);
      };
      return inner.start();
    },
    async send(message) {
      const answers = isJSONRPCResponse(message) ? message.id : undefined;
      if (answers !== undefined) settle(answers);
      // The acknowledgement opens the stream: its baseline is read before the client can see it opened.
      if (isJSONRPCNotification(message) && message.method === 'notifications/subscriptions/acknowledged') {
        const params = message.params as { readonly notifications?: SubscriptionFilter; readonly _meta?: Record<string, unknown> } | undefined;
        await events.listen(params?._meta?.[SUBSCRIPTION_ID_META_KEY] as RequestId, params?.notifications ?? {});
      }
      let written = false;
      try {
        await inner.send(message);
        written = true;
      } finally {
        if (answers !== undefined) events.ended(answers, written);
      }
    },
    async close() {
      stdin.unpipe(input);
      await inner.close();
    },
    answered: () => (unanswered.size === 0 ? Promise.resolve() : new Promise((resolve) => whenAnswered.push(resolve))),
  };
  return wire;
}
