// The logger port. Fields carry identifiers and counts, never message content or summaries.

export type LogFields = Readonly<Record<string, string | number | boolean | undefined>>;

/**
 * Fields first, then the message: the order of pino and bunyan, so `logger: pino()` fits as it
 * is, and `console` too. Winston takes the message first: `{ warn: (fields, msg) => log.warn(msg, fields), … }`.
 */
export interface Logger {
  warn(fields: LogFields, message: string): void;
  error(fields: LogFields, message: string): void;
}
