import { packageJestConfig } from '../../tools/jest.preset';

export default packageJestConfig('adapters-sql-common', __dirname);
