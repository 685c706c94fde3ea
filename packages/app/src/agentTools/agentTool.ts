// What a tool definition is (name, description, JSON Schema, handler) and how a handler answers:
// JSON for the model, or a tool error it can read; never an exception into the gateway.
import { SESSION_KEY_EXPECTED, SESSION_KEY_MAX_LENGTH, type RecordedEvent, type SessionStatus } from '@session-state/domain';

import type { Notice, SessionListRow } from '../api.js';
import { ClockError, ClosedError, InvalidInputError, StoreOperationError } from '../errors/errors.js';

/** A JSON value with mutable arrays, so MCP's `Tool` (whose schema values are JSON) takes a schema built of them. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { readonly [key: string]: JsonValue };

/** A JSON Schema (draft 2020-12 subset) written as a plain object, as tool-calling APIs take it. */
export type JsonSchema = { readonly [key: string]: JsonValue };

/** A session key property of a tool's schema, `what` saying which session it names (kept in step with the domain's codec). */
export function sessionKeyProperty(what: string): JsonSchema {
  return { type: 'string', minLength: 1, maxLength: SESSION_KEY_MAX_LENGTH, description: `${what}: ${SESSION_KEY_EXPECTED}.` };
}

/** A tool's input or output schema: an object of named properties only, as MCP's `Tool` takes both. */
export type ToolInputSchema = {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, JsonSchema>>;
  readonly required: string[];
  readonly additionalProperties: false;
};

/** The schema of an object of `properties`, `required` among them, and no other fields. */
export const objectSchema = (required: string[], properties: ToolInputSchema['properties']): ToolInputSchema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

/** One text block of a tool answer (the MCP `content` shape; the text is the answer as JSON). */
export interface AgentToolText {
  readonly type: 'text';
  readonly text: string;
}

/** What each tool answers when it succeeds, by tool name (the `structuredContent` of `isError: false`). */
export type AgentToolAnswers = {
  // SessionStatus mapped to a plain object type: an interface is not assignable to MCP's Record<string, unknown>.
  readonly session_status: { readonly [K in keyof SessionStatus]: SessionStatus[K] };
  readonly sessions_list: { readonly sessions: SessionListRow[] };
  readonly record: { readonly outcome: 'recorded'; readonly event: RecordedEvent } | { readonly outcome: 'skipped'; readonly reason: 'unwatched' };
  readonly notices_wait: { readonly notices: Notice[] };
};

/** The name of one of the agent's tools. */
export type AgentToolName = keyof AgentToolAnswers;

/** An answer's JSON, and the watcher's pending notices it carries (createAgentTools with `notices`). */
export type WithNotices<Answer> = Answer & { readonly notices?: Notice[] };

/**
 * A tool answer in the shape MCP's `CallToolResult` and most gateways take: `structuredContent` is the JSON, `content` the
 * same JSON as one text block (but `notices`, whose lines are a second block); tagged by `isError` (the tool's `Answer`, or an {@link AgentToolErrorBody}).
 *
 * @example if (!result.isError) console.log(result.structuredContent.stateVersion); // a session_status answer
 */
export type AgentToolResult<Answer extends object = AgentToolAnswers[AgentToolName]> =
  | { readonly isError: false; readonly content: AgentToolContent; readonly structuredContent: WithNotices<Answer> }
  | { readonly isError: true; readonly content: AgentToolContent; readonly structuredContent: WithNotices<AgentToolErrorBody> };

export type AgentToolContent = [AgentToolText] | [AgentToolText, AgentToolText];

/** What the caller knows of one call: `signal` aborts a wait (an MCP client's cancel). */
export type AgentToolContext = { readonly signal?: AbortSignal | undefined };

/**
 * A tool ready to register with a gateway or an MCP server. `handler` validates its input, calls the facade and resolves
 * with the answer; it never rejects (a bad argument or a failed store is an answer with `isError: true`).
 *
 * @example const answer = await tool.handler({ sessionKey: 'agent:main:subagent:child-7', changesSince: 14 });
 */
export interface AgentTool<Name extends AgentToolName = AgentToolName> {
  readonly name: Name;
  readonly description: string;
  readonly inputSchema: ToolInputSchema;
  /** What `structuredContent` holds when `isError` is false (MCP `outputSchema`). */
  readonly outputSchema: ToolInputSchema;
  /** MCP tool annotations: the reads are read-only, `record` writes but never destroys; none reaches outside the store. */
  readonly annotations: { readonly readOnlyHint: boolean; readonly destructiveHint?: false; readonly openWorldHint: false };
  handler(input: unknown, context?: AgentToolContext): Promise<AgentToolResult<AgentToolAnswers[Name]>>;
}

/** One of the agent's tools, tagged by `name`: checking the name tells which answer its handler resolves with. */
export type NamedAgentTool = { [Name in AgentToolName]: AgentTool<Name> }[AgentToolName];

/**
 * For the model: `invalid_input` (fix the argument named by `field`), `unavailable` (try again later), `internal` (a bug),
 * `not_allowed` (the tool exists but this server's configuration withholds it: no argument helps).
 */
export type AgentToolErrorCode = 'invalid_input' | 'unavailable' | 'internal' | 'not_allowed';

/** The JSON of a tool error. Never carries message content: values are described, not echoed. */
export type AgentToolErrorBody = {
  readonly error: {
    readonly code: AgentToolErrorCode;
    readonly message: string;
    /** The rejected argument, e.g. `session_status.changesSince` (invalid_input only). */
    readonly field?: string;
    /** What the argument must hold (invalid_input only). */
    readonly expected?: string;
  };
};

/**
 * The tool error body for anything a handler caught. Bad input keeps the facade's message (values described by type and
 * size); a storage failure gets a fixed sentence, since a driver's words are not the model's business (the facade logged them).
 */
export function toolErrorBody(tool: string, error: unknown): AgentToolErrorBody {
  if (error instanceof InvalidInputError) {
    return { error: { code: 'invalid_input', message: error.message, field: error.field, expected: error.expected } };
  }
  if (error instanceof StoreOperationError || error instanceof ClosedError || error instanceof ClockError) {
    return { error: { code: 'unavailable', message: `${tool} could not read or write session state just now; try again later` } };
  }
  return { error: { code: 'internal', message: `${tool} failed unexpectedly; do not retry it in this turn` } };
}

const textOf = (json: object): [AgentToolText] => [{ type: 'text', text: JSON.stringify(json) }];

/** Read-only tools' annotations. */
export const READS = { readOnlyHint: true, openWorldHint: false } as const;

/** The tool `definition` whose handler runs `body`: its JSON becomes the answer, anything it throws a tool error, so no handler throws into the gateway. */
export function agentTool<Name extends AgentToolName>(
  definition: Omit<AgentTool<Name>, 'handler'>,
  body: (input: unknown, context?: AgentToolContext) => Promise<AgentToolAnswers[Name]>,
): AgentTool<Name> {
  const handler = async (input: unknown, context?: AgentToolContext): Promise<AgentToolResult<AgentToolAnswers[Name]>> => {
    try {
      const json = await body(input, context);
      return { isError: false, content: textOf(json), structuredContent: json };
    } catch (error) {
      const json = toolErrorBody(definition.name, error);
      return { isError: true, content: textOf(json), structuredContent: json };
    }
  };
  return { ...definition, handler };
}
