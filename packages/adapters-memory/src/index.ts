// The in-memory adapter of the StateStore port, plus a manual clock for deterministic tests.
export { corruptMemoryRow, createMemoryStore, type MemoryRowRef, type MemoryStore, type MemoryStoreOptions } from './memoryStore.js';
export { createManualClock, type ManualClock } from './manualClock.js';
