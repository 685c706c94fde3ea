// The facade's parts as awareness.ts wires them; each module takes the ones it uses (a Pick).
import type { Clock, Logger, StateStore } from '@session-state/domain';

import type { Failures } from './errors/failures.js';
import type { Counters } from './metrics.js';
import type { NoticeBoard } from './notices/board.js';
import type { AppendPipeline } from './pipeline/appendPipeline.js';
import type { CallOrder, OperationLane } from './pipeline/lane.js';
import type { Observe, OwnsWatcher } from './ports.js';
import type { Retention } from './retention.js';

export interface FacadeParts {
  readonly store: StateStore;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly counters: Counters;
  readonly failures: Failures;
  readonly board: NoticeBoard;
  readonly observe: Observe;
  readonly lane: OperationLane;
  readonly order: CallOrder;
  readonly appends: AppendPipeline;
  readonly retention: Retention;
  /** Undefined without `ownsSession`: the restart scan and the re-reads cover every watcher. */
  readonly ownsForScan: OwnsWatcher | undefined;
  readonly isClosed: () => boolean;
}
