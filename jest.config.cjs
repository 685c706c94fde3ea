// The root Jest configuration only lists the per-package projects. The PostgreSQL project needs
// a server: it runs when SESSION_STATE_PG_URL is set (as .ci/run does), and the closing summary
// says plainly when it was not run.
//
// The timeout is a hang guard, never a speed check (speed is measured by `npm run bench`). Jest's
// 5 s default failed a PostgreSQL property test that takes 2.8 s on an idle machine when CI ran it
// loaded; property tests, child-process CLI tests and model checks take 1-3 s here. Jest reads
// testTimeout from this root config only: a project's own setting is ignored.

const { tmpdir } = require('node:os');
const { join } = require('node:path');

// Node's compile cache for every process the suite starts (Jest's workers, the CLI children, the
// SQLite store's worker thread, which runs from its TypeScript source): without it each one
// compiles its modules again, and each worker thread strips thread.ts's types again. It is keyed
// by content, so it is never stale; NODE_DISABLE_COMPILE_CACHE=1 turns it off.
process.env['NODE_COMPILE_CACHE'] ??= join(tmpdir(), 'node-compile-cache');

const postgresUrl = process.env['SESSION_STATE_PG_URL'];
const withPostgres = postgresUrl !== undefined && postgresUrl !== '';

/** @type {import('jest').Config} */
const config = {
  testTimeout: 30_000,
  // One worker per core: Jest's default leaves a core idle (cores - 1, so one worker on this
  // 2-core machine), while most suites wait on PostgreSQL, child processes or the file system.
  maxWorkers: '100%',
  reporters: ['default', ['<rootDir>/tools/plainSummaryReporter.js', { postgres: withPostgres }]],
  projects: [
    '<rootDir>/packages/domain',
    '<rootDir>/packages/adapters-memory',
    '<rootDir>/packages/adapters-sql-common',
    '<rootDir>/packages/adapters-sqlite',
    ...(withPostgres ? ['<rootDir>/packages/adapters-postgres'] : []),
    '<rootDir>/packages/app',
    '<rootDir>/packages/prometheus',
    '<rootDir>/packages/inspector',
    '<rootDir>/packages/cli',
    '<rootDir>/tools/codebase',
  ],
};

module.exports = config;
