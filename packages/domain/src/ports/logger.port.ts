// The logger port. Fields carry identifiers and counts, never message content or summaries.

export type LogFields = Readonly<Record<string, string | number | boolean | undefined>>;

export interface Logger {
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}
