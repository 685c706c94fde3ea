import { packageJestConfig } from '../../tools/jest.preset';

export default packageJestConfig('adapters-memory', __dirname);
