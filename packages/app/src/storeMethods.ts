// What a value must have to be taken as a StateStore: the port's required operations (listed once,
// in the domain's port) and `close`. The facade checks `options.store` against them.
import { STORE_OPERATIONS } from '@session-state/domain';

/** What a value must have to be taken as a StateStore. */
export const REQUIRED_STORE_METHODS = [...STORE_OPERATIONS, 'close'] as const;
