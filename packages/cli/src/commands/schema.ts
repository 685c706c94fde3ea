// `session-state schema`: which store --db names and what it holds on disk: its schema version,
// the file and its -wal (SQLite), or the schema and each table's size (PostgreSQL). Read-only.
import type { Command } from 'commander';

import { table } from '../output/format.js';
import type { JsonOption, RunContext } from '../output/io.js';
import { maskUrl } from '../state/secrets.js';
import { stateLocation, type StateLocation } from '../state/stateLocation.js';

/** The `schema --json` answer, one shape per kind of store, loading only that store's adapter; the URL is masked. */
export async function describeStore(location: StateLocation) {
  if (location.kind === 'sqlite') return { kind: 'sqlite' as const, path: location.path, ...(await import('../state/stateFile.js')).describeStateFile(location) };
  const described = await (await import('../state/postgresState.js')).describePostgresStore(location);
  const totalBytes = described.relations.reduce((sum, relation) => sum + relation.bytes, 0);
  return { kind: 'postgres' as const, url: maskUrl(location.url), ...described, totalBytes };
}

export function schemaLines(described: Awaited<ReturnType<typeof describeStore>>): string[] {
  if (described.kind === 'sqlite') {
    return [
      `state file       ${described.path} (SQLite)`,
      `schema version   ${described.schemaVersion}`,
      `file             ${described.fileBytes} bytes`,
      `write-ahead log  ${described.walBytes} bytes (-wal)`,
    ];
  }
  return [
    `store            ${described.url} schema ${described.schema} (PostgreSQL)`,
    `schema version   ${described.schemaVersion}`,
    `total            ${described.totalBytes} bytes (tables with their indexes and TOAST)`,
    '',
    ...table(
      [
        { header: 'table', cell: (relation) => relation.name },
        { header: 'bytes', cell: (relation) => relation.bytes, right: true },
      ],
      described.relations,
    ),
  ];
}

export function registerSchema(program: Command, { io, out }: RunContext): void {
  program
    .command('schema')
    .description("the store's schema version, where it is, and its size (file and -wal, or each table)")
    .option('--json', 'print the description as JSON')
    .action(async (options: JsonOption, command: Command) => out.print(options, await describeStore(stateLocation(command, io.cwd)), schemaLines));
}
