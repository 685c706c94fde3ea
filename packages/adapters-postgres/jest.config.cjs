const { packageJestConfig } = require('../../tools/jest.preset.cjs');

module.exports = packageJestConfig('adapters-postgres', __dirname);
