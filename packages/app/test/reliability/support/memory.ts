// Heap measurements for the load battery: a forced garbage collection (enabled at runtime, so
// jest needs no --expose-gc flag) before reading process.memoryUsage(), so figures are stable.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Heap and resident set in MiB, after a full collection. */
export interface MemoryFigures {
  readonly heapUsedMiB: number;
  readonly rssMiB: number;
}

const MIB = 1024 * 1024;

export function measureMemory(): MemoryFigures {
  gc();
  gc();
  const usage = process.memoryUsage();
  return { heapUsedMiB: Math.round((usage.heapUsed / MIB) * 10) / 10, rssMiB: Math.round((usage.rss / MIB) * 10) / 10 };
}
