// The `watch` part of a gateway's own `sessions_send` tool: a schema property and a sentence to
// merge into that tool, and the call to make once the gateway has dispatched the message.
import type { SentInput, SessionStateAwareness } from '../api.js';
import { decodeOptional, TrueOrFalse } from '../input/codecs.js';
import { toolErrorBody, type AgentToolErrorBody, type JsonSchema } from './agentTool.js';

/** What the gateway passes once its `sessions_send` dispatched a message (or failed to): `sent`'s input, `senderKey` the session whose model called it. */
export interface AfterSendInput extends Omit<SentInput, 'watch'> {
  /** The model's `watch` argument as it came (absent means false); checked here. */
  readonly watch: unknown;
}

/** Merge into the `sessions_send` answer: `watched`, and a readable `error` when the watch could not be set. */
export type AfterSendResult = { readonly watched: boolean } | ({ readonly watched: false } & AgentToolErrorBody);

/**
 * How a gateway adds watching to its own `sessions_send` tool: spread `inputProperties` into the
 * tool's schema properties, append `description` to its description, and after dispatching call
 * `afterSend` and merge its result into the tool's answer.
 *
 * @example
 * const schema = { ...sendSchema, properties: { ...sendSchema.properties, ...tools.sessionsSend.inputProperties } };
 * const { watched } = await tools.sessionsSend.afterSend({ senderKey, deliveredTo, watch: args.watch });
 */
export interface SessionsSendWatch {
  readonly inputProperties: { readonly watch: JsonSchema };
  readonly description: string;
  /** Registers the watch (awareness.sent); never rejects: a bad `watch` or a failed store is `{ watched: false, error }`. */
  afterSend(input: AfterSendInput): Promise<AfterSendResult>;
}

const WATCH_PROPERTY: JsonSchema = {
  type: 'boolean',
  description:
    'true to be told (one notice) when the receiving session is later changed by someone else: a human message to it, a goal change, its upstream disappearing. Default false.',
};

const DESCRIPTION =
  'With watch: true you will get one notice when the receiving session later changes by another actor (not by you): rely on it when you delegate or coordinate and will act on that session\'s state. ' +
  'The answer says watched: true or false; false when watch was not set, the message was not delivered, or the sessions cannot watch each other (a session never watches itself, and only agent:<id>:… sessions watch). Watching again keeps the existing watch.';

export function sessionsSendWatch(awareness: SessionStateAwareness): SessionsSendWatch {
  return {
    inputProperties: { watch: WATCH_PROPERTY },
    description: DESCRIPTION,
    async afterSend({ senderKey, deliveredTo, watch, delivered }) {
      try {
        const watched = decodeOptional(TrueOrFalse, watch, 'sessions_send.watch') === true;
        return await awareness.sent({ senderKey, deliveredTo, watch: watched, ...(delivered !== undefined ? { delivered } : {}) });
      } catch (error) {
        return { watched: false, ...toolErrorBody('sessions_send', error) };
      }
    },
  };
}
