// Shared Jest settings for every package: ts-jest in transpile-only mode (tsc -b does the type
// check), transpiling the ESM sources to CommonJS (tools/jest/tsTransform.cjs), relative `./x.js`
// specifiers resolved to their `.ts` files, and workspace imports resolved to sources, so tests
// never run stale dist/ code.
// Plain CommonJS, so Jest loads it on every supported Node without a TypeScript loader (Node's own
// type stripping refuses the extensionless imports a `.ts` config would need).
const path = require('node:path');

/** @returns {import('jest').Config} */
function packageJestConfig(displayName, packageDir, { needsPostgres = [] } = {}) {
  const postgresUrl = process.env['SESSION_STATE_PG_URL'];
  const withPostgres = postgresUrl !== undefined && postgresUrl !== '';
  return {
    displayName,
    rootDir: packageDir,
    testEnvironment: 'node',
    testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
    testPathIgnorePatterns: ['/node_modules/', ...(withPostgres ? [] : needsPostgres)],
    transform: {
      '^.+\\.ts$': [path.join(__dirname, 'jest', 'tsTransform.cjs'), { tsconfig: path.join(__dirname, 'jest', 'tsconfig.transpile.json'), diagnostics: false }],
    },
    moduleNameMapper: {
      '^(\\.{1,2}/.*)\\.js$': '$1',
      '^@session-state/([a-z-]+)$': path.join(packageDir, '..', '$1', 'src', 'index.ts'),
    },
  };
}

module.exports = { packageJestConfig };
