const { packageJestConfig } = require('../../tools/jest.preset.cjs');

module.exports = packageJestConfig('adapters-memory', __dirname);
