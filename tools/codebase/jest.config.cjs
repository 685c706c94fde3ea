const { packageJestConfig } = require('../jest.preset.cjs');

module.exports = packageJestConfig('codebase', __dirname);
