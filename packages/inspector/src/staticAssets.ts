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
export const PUBLIC_DIR = path.join(import.meta.dirname, '..', 'public');

const PAGE_FILES: ReadonlyArray<readonly [route: string, file: string, contentType: string]> = [
  ['/', 'index.html', 'text/html; charset=utf-8'],
  ['/inspector.css', 'inspector.css', 'text/css; charset=utf-8'],
  ['/inspector.js', 'inspector.js', 'text/javascript; charset=utf-8'],
  ['/graphView.js', 'graphView.js', 'text/javascript; charset=utf-8'],
  ['/timelineView.js', 'timelineView.js', 'text/javascript; charset=utf-8'],
];

/** The route the page loads cytoscape from. */
export const CYTOSCAPE_ROUTE = '/vendor/cytoscape.min.js';

/** Every static route and its file, read now. */
export function loadStaticAssets(): ReadonlyMap<string, StaticAsset> {
  const cytoscape = createRequire(import.meta.url).resolve('cytoscape/dist/cytoscape.min.js');
  return new Map([
    ...PAGE_FILES.map(([route, file, contentType]): [string, StaticAsset] => [route, { body: fs.readFileSync(path.join(PUBLIC_DIR, file)), contentType }]),
    [CYTOSCAPE_ROUTE, { body: fs.readFileSync(cytoscape), contentType: 'text/javascript; charset=utf-8' }],
  ]);
}
