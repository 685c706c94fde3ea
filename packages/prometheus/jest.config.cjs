const { packageJestConfig } = require('../../tools/jest.preset.cjs');

module.exports = packageJestConfig('prometheus', __dirname);
