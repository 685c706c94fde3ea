// The inspector page in a real browser: Debian's Chromium, headless, driven by playwright-core.
// On the demo's file (made by `session-state demo`), served by `session-state inspect`, the graph
// drawn on the page has exactly the store's sessions and cursors; an event recorded by another
// process reaches the page without a reload; screenshots land in test-output/.
// Skipped, saying why, only where /usr/bin/chromium is absent (.ci/run installs it).
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { openSqliteStore } from '@session-state/adapters-sqlite';
import { fromWatermarks } from '@session-state/domain';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';
const CLI = path.resolve(__dirname, '..', '..', 'cli', 'bin', 'session-state.js');
const OUTPUT = path.resolve(__dirname, '..', 'test-output');
const MANAGER = 'agent:main:main';
const RESEARCHER = 'agent:main:subagent:researcher';
const TEST_TIMEOUT_MS = 120_000;

const haveChromium = fs.existsSync(CHROMIUM);
if (!haveChromium) {
  // eslint-disable-next-line no-console
  console.log(`inspector browser test SKIPPED: ${CHROMIUM} is absent (install Debian's chromium package; .ci/run does)`);
}
const describeInBrowser = haveChromium ? describe : describe.skip;

/** Runs the built CLI to completion; fails the test on a non-zero exit. */
function cli(args: readonly string[]): string {
  const result = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) throw new Error(`session-state ${args[0] ?? ''} exited ${String(result.status)}: ${result.stderr}`);
  return result.stdout;
}

/** Resolves with the first line the child prints on stdout. */
function firstLine(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString('utf8');
    });
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const end = text.indexOf('\n');
      if (end >= 0) resolve(text.slice(0, end));
    });
    child.on('exit', (code) => reject(new Error(`inspect exited ${String(code)} before printing its URL: ${errors}`)));
  });
}

/** The session nodes and cursor edges the page's cytoscape instance draws. */
async function drawnGraph(page: Page): Promise<{ sessions: string[]; edges: [string, string, boolean][] }> {
  return page.evaluate(() => {
    const { cy } = (window as unknown as { inspector: { cy: CyLike } }).inspector;
    return {
      sessions: cy.nodes('.session').map((node) => node.id()).sort(),
      edges: cy.edges().map((edge) => [String(edge.data('source')), String(edge.data('target')), edge.hasClass('pending')] as [string, string, boolean]).sort(),
    };
  });
}

/** What the test reads of a cytoscape instance inside the page. */
interface CyLike {
  nodes(selector: string): { map<T>(f: (node: { id(): string }) => T): T[] };
  edges(): { map<T>(f: (edge: { data(name: string): unknown; hasClass(name: string): boolean }) => T): T[] };
}

/** The store's own sessions and cursors, read through a read-only store. */
async function storeGraph(file: string): Promise<{ sessions: string[]; edges: [string, string, boolean][] }> {
  const store = openSqliteStore({ path: file, readOnly: true });
  try {
    const heads = await store.readHeads();
    const cursors = await store.listCursors();
    const sessions = new Set<string>([...heads.map((row) => row.sessionKey), ...cursors.flatMap((row) => [row.watcher, row.target])]);
    return {
      sessions: [...sessions].sort(),
      edges: cursors.map((row) => [row.watcher, row.target, fromWatermarks(row).status === 'pending'] as [string, string, boolean]).sort(),
    };
  } finally {
    await store.close();
  }
}

describeInBrowser('the inspector page in Chromium', () => {
  let dir: string;
  let file: string;
  let inspect: ChildProcessWithoutNullStreams | undefined;
  let browser: BrowserContext | undefined;

  beforeAll(() => {
    if (!fs.existsSync(path.resolve(__dirname, '..', '..', 'cli', 'dist', 'main.js'))) throw new Error('the CLI is not built: run npm run build first');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'session-state-browser-'));
    file = path.join(dir, 'demo.db');
    fs.mkdirSync(OUTPUT, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    if (inspect !== undefined && inspect.exitCode === null) {
      const exited = new Promise((resolve) => inspect?.on('exit', resolve));
      inspect.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test(
    "draws the demo's watch graph as the store holds it, and shows an event recorded by another process without a reload",
    async () => {
      cli(['demo', '--db', file]);
      inspect = spawn(process.execPath, [CLI, 'inspect', '--port', '0', '--db', file]);
      const url = await firstLine(inspect);

      browser = await chromium.launchPersistentContext(path.join(dir, 'chromium-profile'), {
        executablePath: CHROMIUM,
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic'],
        viewport: { width: 1400, height: 1000 },
      });
      const page = browser.pages()[0] ?? (await browser.newPage());
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      await page.goto(url);
      await page.waitForFunction(() => Number(document.body.dataset['version']) >= 1);

      // The graph against the store: every session and every cursor, pending pairs marked.
      const expected = await storeGraph(file);
      expect(expected.sessions).toEqual([MANAGER, RESEARCHER, 'agent:ops:main']);
      expect(await drawnGraph(page)).toEqual(expected);
      // Held notices are the list's items; an empty list shows one muted "none" line instead.
      const heldNotices = (): Promise<number> => page.locator('#notices li:not(.muted)').count();
      expect(await heldNotices()).toBe(expected.edges.filter(([, , pending]) => pending).length);
      await page.screenshot({ path: path.join(OUTPUT, 'inspector-demo.png'), fullPage: true });

      // Another process records a human message on the researcher: the manager's idle pair turns
      // pending, and the page shows it through its event stream, with no new navigation.
      await page.evaluate(() => {
        (window as unknown as { untouched: boolean }).untouched = true;
      });
      const versionBefore = Number(await page.evaluate(() => document.body.dataset['version']));
      const recorded = JSON.parse(
        cli(['record', RESEARCHER, '--kind', 'human_direct_message', '--actor', 'human', '--summary', 'recorded by the browser test', '--json', '--db', file]),
      ) as { event: { sequence: number } };
      await page.waitForFunction(
        ({ edge, sequence }) => {
          const { cy } = (window as unknown as { inspector: { cy: { getElementById(id: string): { hasClass(name: string): boolean } } } }).inspector;
          return cy.getElementById(edge).hasClass('pending') && document.querySelector(`#timeline-table tr[data-sequence="${sequence}"]`) !== null;
        },
        { edge: `${MANAGER} -> ${RESEARCHER}`, sequence: recorded.event.sequence },
      );
      expect(await page.evaluate(() => (window as unknown as { untouched?: boolean }).untouched)).toBe(true);
      expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1);
      expect(Number(await page.evaluate(() => document.body.dataset['version']))).toBeGreaterThan(versionBefore);
      const after = await storeGraph(file);
      expect(await drawnGraph(page)).toEqual(after);
      expect(await heldNotices()).toBe(after.edges.filter(([, , pending]) => pending).length);
      expect(await heldNotices()).toBeGreaterThan(0);
      expect(await page.locator('#timeline-table').innerText()).toContain('recorded by the browser test');
      await page.screenshot({ path: path.join(OUTPUT, 'inspector-after-record.png'), fullPage: true });
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});
