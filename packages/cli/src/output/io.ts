// What one run of the tool works with, passed in rather than taken from the process: its output
// streams, environment, working directory and interrupt signal (`CliIo`); the writers every
// command shares on top of them (`Output`: human lines and JSON on stdout that stop quietly once
// the reader has gone, `list | head -1`, and notes on stderr with the secrets of --db removed).
import type { Readable } from 'node:stream';

import type { Redact } from '../state/secrets.js';

/** A stream the tool writes text to: `process.stdout`, or a test's collector. */
export interface CliStream {
  write(text: string): unknown;
  /** A stream that can fail (a pipe, a file) reports it here; a collector may leave it out. */
  on?(event: 'error', listener: (error: NodeJS.ErrnoException) => void): unknown;
  /** A terminal's width, which the help wraps to. */
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/** The process state one run reads and writes; `main` touches nothing else of the process. */
export interface CliIo {
  readonly stdout: CliStream;
  readonly stderr: CliStream;
  /** The environment: SESSION_STATE_DB and SESSION_STATE_PG_SCHEMA are read from here. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The directory a relative --db path is resolved against. */
  readonly cwd: string;
  /**
   * Calls `stop` on the first interrupt (Ctrl-C, SIGTERM) while a command that runs until stopped
   * (`tail`) listens; returns the function that stops listening.
   */
  readonly onInterrupt: (stop: () => void) => () => void;
  /** Standard input, for a command that serves a protocol on it (`mcp`); a test's run may leave it out. */
  readonly stdin?: Readable;
}

/** The run's first interrupt: `promise` resolves on it, `isSet` tells whether it came; `dispose` stops listening. */
export function interruption(io: CliIo): { readonly promise: Promise<void>; readonly isSet: () => boolean; readonly dispose: () => void } {
  const interrupted = new AbortController();
  const promise = new Promise<void>((resolve) => interrupted.signal.addEventListener('abort', () => resolve(), { once: true }));
  const dispose = io.onInterrupt(() => interrupted.abort());
  return { promise, isSet: () => interrupted.signal.aborted, dispose };
}

/** The real process: its stdout, stderr, environment, working directory, SIGINT and SIGTERM. */
export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    onInterrupt: (stop) => {
      const off = (): void => void ['SIGINT', 'SIGTERM'].forEach((signal) => process.off(signal, once));
      const once = (): void => {
        off();
        stop();
      };
      process.on('SIGINT', once).on('SIGTERM', once);
      return off;
    },
  };
}

// Text bound for a terminal is made inert: stored keys, summaries and payloads reach the human
// output, and a terminal acts on control characters (a C1 CSI or OSC clears the screen, rewrites
// earlier lines, sets the title) and reorders text on bidirectional overrides, so each such
// character is written as the JSON escape `\u009b` instead. On a JSON line the escape means the
// same character, so the value read back is unchanged. UNSAFE: C0 (line breaks too: one output
// line is one line), DEL, C1, the line and paragraph separators, and the bidirectional
// embeddings, overrides and isolates.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/** `line` with every character a terminal could act on written as `\uXXXX`: `a\u009b2Jb` for `a`, CSI, `2Jb`. */
const terminalSafe = (line: string): string => line.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Errors that mean the reader of a pipe or socket has gone: `head` read what it wanted. */
const READER_GONE: ReadonlySet<string> = new Set(['EPIPE', 'ECONNRESET', 'ERR_STREAM_DESTROYED']);

/** The `--json` switch of the commands that print an answer. */
export type JsonOption = { readonly json?: boolean };

/**
 * The writers of one run over `io`'s streams: `lines` (each one line) and `print` (a command's
 * answer: `value` as indented JSON with `--json`, else the lines `human` makes of it)
 * on stdout; `note`, one diagnostic line on stderr (progress and warnings, never data) without the
 * secrets of --db; `redact` for commander's own messages bound for stderr. Every line they write
 * passes through terminalSafe, the one place output is made safe for a terminal. A reader that
 * went away (EPIPE) ends the output quietly: later writes are dropped, `isClosed()` turns true and
 * `closed` resolves, so a command such as `tail` stops and the run exits 0, as `head` users expect.
 * Any other write error is reported and fails the run (`hasFailed()`). A failing stderr is
 * ignored: nothing can be said about it, and it must not end the process with a stack.
 */
export function createOutput(io: CliIo, redact: Redact) {
  let closed = false;
  let failed = false;
  let announceClosed: () => void = () => undefined;
  const closedPromise = new Promise<void>((resolve) => (announceClosed = resolve));
  const writeLines = (lines: readonly string[]): void => {
    if (lines.length > 0 && !closed) io.stdout.write(`${lines.map(terminalSafe).join('\n')}\n`);
  };
  const note = (line: string): void => void io.stderr.write(`${terminalSafe(redact(line))}\n`);
  io.stdout.on?.('error', (error) => {
    if (!READER_GONE.has(error.code ?? '')) {
      note(`error: cannot write to stdout: ${error.message}`);
      failed = true;
    }
    closed = true;
    announceClosed();
  });
  io.stderr.on?.('error', () => undefined);
  return {
    lines: writeLines,
    // JSON text holds no raw line break but its own indentation, so its lines are its lines.
    print: <T>(options: JsonOption, value: T, human: (value: T) => readonly string[]): void =>
      writeLines(options.json === true ? JSON.stringify(value, null, 2).split('\n') : human(value)),
    note,
    redact,
    isClosed: () => closed,
    closed: closedPromise,
    hasFailed: () => failed,
  };
}

/** What each command of one run works with: its surroundings and its writers. */
export interface RunContext {
  readonly io: CliIo;
  readonly out: ReturnType<typeof createOutput>;
}
