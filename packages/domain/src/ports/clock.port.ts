// The clock port: the only source of "now" (epoch milliseconds) for append times and retention.

export interface Clock {
  now(): number;
}
