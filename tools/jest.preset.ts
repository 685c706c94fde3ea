// Shared Jest settings for every package: ts-jest in transpile-only mode (tsc -b does the type
// check) and workspace imports resolved to sources, so tests never run stale dist/ code.
import type { Config } from 'jest';
import * as path from 'node:path';

export function packageJestConfig(displayName: string, packageDir: string): Config {
  return {
    displayName,
    rootDir: packageDir,
    testEnvironment: 'node',
    testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
    transform: {
      '^.+\\.ts$': [
        'ts-jest',
        { tsconfig: path.join(packageDir, "tsconfig.test.json"), diagnostics: false },
      ],
    },
    moduleNameMapper: {
      '^@session-state/([a-z-]+)$': path.join(packageDir, '..', '$1', 'src', 'index.ts'),
    },
  };
}
