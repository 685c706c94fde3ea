// The inspector's Jest project: the routes and change sources in process, the CLI's `inspect` as
// a child process, and the page in a real browser (Debian's Chromium, driven by playwright-core).
import { packageJestConfig } from '../../tools/jest.preset';

export default packageJestConfig('inspector', __dirname);
