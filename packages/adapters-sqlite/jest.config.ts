import { packageJestConfig } from '../../tools/jest.preset';

export default packageJestConfig('adapters-sqlite', __dirname);
