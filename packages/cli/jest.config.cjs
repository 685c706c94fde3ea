// test/postgres/ needs a server: it is only collected when SESSION_STATE_PG_URL is set, as the
// root config does for the adapter.
const { packageJestConfig } = require('../../tools/jest.preset.cjs');

module.exports = packageJestConfig('cli', __dirname, { needsPostgres: ['<rootDir>/test/postgres/'] });
