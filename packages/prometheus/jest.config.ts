import { packageJestConfig } from '../../tools/jest.preset';

export default packageJestConfig('prometheus', __dirname);
