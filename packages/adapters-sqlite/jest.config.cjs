const { packageJestConfig } = require('../../tools/jest.preset.cjs');

module.exports = packageJestConfig('adapters-sqlite', __dirname);
