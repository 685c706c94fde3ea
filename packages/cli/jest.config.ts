// The CLI's Jest project. test/postgres/ (the CLI on a postgres:// URL) needs a server: it is
// only collected when SESSION_STATE_PG_URL is set, as the root config does for the adapter.
import { packageJestConfig } from '../../tools/jest.preset';

const postgresUrl = process.env['SESSION_STATE_PG_URL'];
const withPostgres = postgresUrl !== undefined && postgresUrl !== '';

const config = packageJestConfig('cli', __dirname);

export default withPostgres ? config : { ...config, testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/postgres/'] };
