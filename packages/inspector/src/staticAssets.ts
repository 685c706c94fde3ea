// The page's files: the plain HTML, CSS and JavaScript shipped in this package's public/ folder
// (no build step) and cytoscape's browser bundle from the package's own dependency (no CDN: the
// page works without a network). Read once, when the server starts.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** A file the server answers with, and its content type. */
export interface StaticAsset {
  readonly body: Uint8Array;
  readonly contentType: string;
}

/** The folder of the page's own files: public/ beside src/ and dist/. */
const PUBLIC_DIR = path.join(import.meta.dirname, '..', 'public');

const CONTENT_TYPES: Readonly<Record<string, string>> = { html: 'text/html', css: 'text/css', js: 'text/javascript' };

/** Every static route and its file, read now: public/'s files (index.html at `/`) and cytoscape's bundle. */
export function loadStaticAssets(): ReadonlyMap<string, StaticAsset> {
  const cytoscape = createRequire(import.meta.url).resolve('cytoscape/dist/cytoscape.min.js');
  const asset = (file: string): StaticAsset => ({ body: fs.readFileSync(file), contentType: `${CONTENT_TYPES[path.extname(file).slice(1)] ?? 'text/plain'}; charset=utf-8` });
  return new Map([
    ...['index.html', 'inspector.css', 'inspector.js', 'graphView.js', 'timelineView.js'].map((file) => [file === 'index.html' ? '/' : `/${file}`, asset(path.join(PUBLIC_DIR, file))] as const),
    ['/vendor/cytoscape.min.js', asset(cytoscape)],
  ]);
}
