// The in-memory adapter of the StateStore port, plus a manual clock for deterministic tests.
export { createMemoryStore, type MemoryStore } from './memoryStore.js';
export { createManualClock, type ManualClock } from './manualClock.js';
