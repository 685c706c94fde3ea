// Preloaded into a CLI child (NODE_OPTIONS=--require) to make the file system answer a write
// check on FAKE_ERRNO_PATH with FAKE_ERRNO (e.g. EROFS), for failures a test cannot cause for
// real without privileges (mounting a read-only file system).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const target = path.resolve(process.env.FAKE_ERRNO_PATH || '');
const code = process.env.FAKE_ERRNO || 'EROFS';
const original = fs.accessSync;
fs.accessSync = function accessSync(file, mode) {
  if (mode !== undefined && (mode & fs.constants.W_OK) !== 0 && path.resolve(String(file)) === target) {
    throw Object.assign(new Error(`${code}: faked by the test, access '${file}'`), { code, errno: -30, syscall: 'access', path: String(file) });
  }
  return original.apply(this, arguments);
};
