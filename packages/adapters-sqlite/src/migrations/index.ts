// Every committed migration, in version order; append new ones, never edit applied ones.
import { initial } from './0001_initial';
import { cursorJournal } from './0002_cursor_journal';
import type { Migration } from './migration';

export type { Migration } from './migration';

export const MIGRATIONS: readonly Migration[] = [initial, cursorJournal];

/** The newest schema version: the version a file has once every migration ran. */
export const NEWEST_SCHEMA_VERSION = MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);
