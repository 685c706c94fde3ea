// The root Jest configuration only lists the per-package projects. The PostgreSQL project needs
// a server: it runs when SESSION_STATE_PG_URL is set (as .ci/run does), and the closing summary
// says plainly when it was not run.
import type { Config } from 'jest';

const postgresUrl = process.env['SESSION_STATE_PG_URL'];
const withPostgres = postgresUrl !== undefined && postgresUrl !== '';

const config: Config = {
  reporters: ['default', ['<rootDir>/tools/plainSummaryReporter.js', { postgres: withPostgres }]],
  projects: [
    '<rootDir>/packages/domain',
    '<rootDir>/packages/adapters-memory',
    '<rootDir>/packages/adapters-sqlite',
    ...(withPostgres ? ['<rootDir>/packages/adapters-postgres'] : []),
    '<rootDir>/packages/app',
  ],
};

export default config;
