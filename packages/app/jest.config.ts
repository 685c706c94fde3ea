import { packageJestConfig } from '../../tools/jest.preset';

export default packageJestConfig('app', __dirname);
