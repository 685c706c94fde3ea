// The wake port: called synchronously when a notice is newly queued for a watcher that is not
// a nested sub-agent session. Must be cheap and idempotent; coalescing is the gateway's business.

export type Wake = (watcherKey: string) => void;
