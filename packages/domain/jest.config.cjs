const { packageJestConfig } = require('../../tools/jest.preset.cjs');

module.exports = packageJestConfig('domain', __dirname);
