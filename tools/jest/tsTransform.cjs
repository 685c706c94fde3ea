// ts-jest, transpiling the packages' ESM sources to the CommonJS Jest runs. The one thing a
// CommonJS transpile cannot express is `import.meta`: its three uses here are rewritten to the
// CommonJS values they stand for before ts-jest sees the file.
const { TsJestTransformer } = require('ts-jest');

const IMPORT_META = {
  'import.meta.dirname': '__dirname',
  'import.meta.filename': '__filename',
  'import.meta.url': 'require("node:url").pathToFileURL(__filename).href',
};

function withoutImportMeta(source) {
  return source.includes('import.meta') ? source.replace(/import\.meta\.(dirname|filename|url)\b/g, (use) => IMPORT_META[use]) : source;
}

class EsmSourcesTransformer extends TsJestTransformer {
  process(source, path, options) {
    return super.process(withoutImportMeta(source), path, options);
  }
  processAsync(source, path, options) {
    return super.processAsync(withoutImportMeta(source), path, options);
  }
  getCacheKey(source, path, options) {
    return `${super.getCacheKey(source, path, options)}:esm-sources-1`;
  }
  getCacheKeyAsync(source, path, options) {
    return super.getCacheKeyAsync(source, path, options).then((key) => `${key}:esm-sources-1`);
  }
}

module.exports = { createTransformer: (config) => new EsmSourcesTransformer(config) };
