// The app's Jest project. The PostgreSQL tests (test/postgres/: two gateways in two processes)
// need a server: they are only collected when SESSION_STATE_PG_URL is set, as the root config
// does for the adapter.
import { packageJestConfig } from '../../tools/jest.preset';

const postgresUrl = process.env['SESSION_STATE_PG_URL'];
const withPostgres = postgresUrl !== undefined && postgresUrl !== '';

const config = packageJestConfig('app', __dirname);

export default withPostgres ? config : { ...config, testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/postgres/'] };
