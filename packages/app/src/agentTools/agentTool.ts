// What a tool definition is (name, description, JSON Schema, handler) and how a handler answers:
// JSON for the model, or a tool error it can read; never an exception into the gateway.
import { ClockError } from '../clockReading.js';
import { InvalidInputError } from '../invalidInputError.js';
import { ClosedError, StoreOperationError } from '../storeOperationError.js';

// --- the definition --------------------------------------------------------------------------

/** A JSON Schema (draft 2020-12 subset) written as a plain object, as tool-calling APIs take it. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** A tool's input schema: always an object with named properties and nothing else. */
export interface ToolInputSchema {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties: false;
}

/** One text block of a tool answer (the MCP `content` shape; the text is the answer as JSON). */
export interface AgentToolText {
  readonly type: 'text';
  readonly text: string;
}

/**
 * A tool answer in the shape MCP and most gateways take: `structuredContent` is the JSON,
 * `content` the same JSON as one text block, and `isError` true for a tool error (whose
 * `structuredContent` is an {@link AgentToolErrorBody}).
 */
export interface AgentToolResult {
  readonly isError: boolean;
  readonly content: readonly [AgentToolText];
  readonly structuredContent: Readonly<Record<string, unknown>>;
}

/**
 * A tool ready to register with a gateway or an MCP server. `handler` validates its input, calls
 * the facade and resolves with the answer; it never rejects (a bad argument or a failed store is
 * an answer with `isError: true`).
 *
 * @example const answer = await tool.handler({ sessionKey: 'agent:main:subagent:child-7', changesSince: 14 });
 */
export interface AgentTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: ToolInputSchema;
  handler(input: unknown): Promise<AgentToolResult>;
}

// --- errors ----------------------------------------------------------------------------------

/**
 * What went wrong, for the model: `invalid_input` (fix the argument named by `field` and call
 * again), `unavailable` (the store failed or is closed: try again later), `internal` (a bug).
 */
export type AgentToolErrorCode = 'invalid_input' | 'unavailable' | 'internal';

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
 * The tool error body for anything a handler caught. Bad input keeps the facade's worded message
 * (it describes values by type and size); a storage failure gets a fixed sentence, since a
 * driver's words are not the model's business (the facade has already logged them).
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

// --- answers ---------------------------------------------------------------------------------

function answer(isError: boolean, json: Readonly<Record<string, unknown>>): AgentToolResult {
  return { isError, content: [{ type: 'text', text: JSON.stringify(json) }], structuredContent: json };
}

/**
 * Runs a handler body: its JSON becomes the answer, anything it throws or rejects with a tool
 * error. Used by every tool, so no handler can throw into the gateway.
 */
export async function answerWith(tool: string, body: () => Promise<Readonly<Record<string, unknown>>>): Promise<AgentToolResult> {
  try {
    return answer(false, await body());
  } catch (error) {
    return answer(true, toolErrorBody(tool, error));
  }
}
