// The root Jest configuration only lists the per-package projects.
import type { Config } from 'jest';

const config: Config = {
  reporters: ['default', '<rootDir>/tools/plainSummaryReporter.js'],
  projects: [
    '<rootDir>/packages/domain',
    '<rootDir>/packages/adapters-memory',
    '<rootDir>/packages/adapters-sqlite',
    '<rootDir>/packages/app',
  ],
};

export default config;
