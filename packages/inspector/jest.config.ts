// The inspector's Jest project: the routes and change sources in process, and the page in a real
// browser (Debian's Chromium, driven by playwright-core). test/postgres/ (the store's LISTEN
// signals as a change source) needs a server: it is only collected when SESSION_STATE_PG_URL is
// set, as the root config does for the adapter.
import { packageJestConfig } from '../../tools/jest.preset';

const postgresUrl = process.env['SESSION_STATE_PG_URL'];
const withPostgres = postgresUrl !== undefined && postgresUrl !== '';

const config = packageJestConfig('inspector', __dirname);

export default withPostgres ? config : { ...config, testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/postgres/'] };
