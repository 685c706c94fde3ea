const { packageJestConfig } = require('../../tools/jest.preset.cjs');

module.exports = packageJestConfig('adapters-sql-common', __dirname);
