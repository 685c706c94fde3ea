import { packageJestConfig } from '../../tools/jest.preset';

export default packageJestConfig('domain', __dirname);
