// The parts the facade's methods are built from, created and wired in `awareness.ts`.
import type { Clock, Logger, StateStore } from '@session-state/domain';

import type { AppendPipeline } from './appendPipeline.js';
import type { CallOrder } from './callOrder.js';
import type { Failures } from './failures.js';
import type { Counters } from './metrics.js';
import type { NoticeBoard } from './noticeBoard.js';
import type { OwnsWatcher } from './ownership.js';
import type { Retention } from './retention.js';

export interface FacadeParts {
  readonly store: StateStore;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly counters: Counters;
  readonly failures: Failures;
  readonly board: NoticeBoard;
  readonly order: CallOrder;
  readonly appends: AppendPipeline;
  readonly retention: Retention;
  /** Which watchers' notices this process queues (`ownsSession` at appends); undefined: all of them. */
  readonly ownsWatcher: OwnsWatcher | undefined;
  /** True from the call of close() on. */
  readonly isClosed: () => boolean;
}
