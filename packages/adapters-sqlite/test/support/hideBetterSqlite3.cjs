// Preloaded (--require) into a child process and its worker threads: better-sqlite3 cannot be
// found, as in a gateway that installed only node:sqlite's nothing.
'use strict';
const Module = require('node:module');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === 'better-sqlite3' || /[\\/]better-sqlite3[\\/]/.test(request)) {
    throw Object.assign(new Error(`Cannot find module '${request}'`), { code: 'MODULE_NOT_FOUND' });
  }
  return resolve.call(this, request, ...rest);
};
