import { packageJestConfig } from '../../tools/jest.preset';

export default packageJestConfig('adapters-postgres', __dirname);
