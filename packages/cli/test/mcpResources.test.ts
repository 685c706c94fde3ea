// `session-state mcp` resources and subscriptions end to end, with the SDK's own Client over stdio on
// a state file a second facade (a gateway's, in this process) and other processes write to: the
// templates, the reader's notices and the sessions it watches are listed and readable; a subscribed
// resource is updated once per change of state (a burst is one update), on the 2025-11-25
// `resources/subscribe` and the 2026-07-28 `subscriptions/listen`; a notice the server's own tool
// call raised comes back attached to that call's answer. Notices another process raises: mcpNotices.test.ts.
import fs from 'node:fs';
import path from 'node:path';

import { openSqliteStore } from '@session-state/adapters-sqlite';
import { createSessionStateAwareness, type SessionStateAwareness } from '@session-state/app';

import { connect, noticesOf, readJson, type Session } from './support/mcpClient.js';
import { jsonOf, requireBuiltCli, runCli, spawnCli, specNotice, tempDir } from './support/runCli.js';

jest.setTimeout(60_000);

const MANAGER = 'agent:main:main';
const CHILD = 'agent:main:subagent:child-7';
const OTHER_CHILD = 'agent:main:subagent:child-8';
const SESSION = `session-state://sessions/${CHILD}`;
const NOTICES = `session-state://watchers/${MANAGER}/notices`;

let dir: string;
let db: string;
let gateway: SessionStateAwareness;

beforeAll(async () => {
  requireBuiltCli();
  dir = tempDir();
  db = path.join(dir, 'state.db');
  const logger = { warn: () => undefined, error: () => undefined };
  gateway = await createSessionStateAwareness({ store: openSqliteStore({ path: db }), logger, startup: { restartScan: false, prune: 'off' } });
  const spawned = await gateway.childSpawned({ parentKey: MANAGER, childKey: CHILD });
  expect(spawned.ok).toBe(true);
});

afterAll(async () => {
  await gateway.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const humanTurn = (summary: string) => ({ sessionKey: CHILD, kind: 'human_direct_message', actorType: 'human', summary }) as const;
/** Another process records a human turn on CHILD. */
const recordElsewhere = (summary: string): void => {
  expect(spawnCli(['record', CHILD, '--kind', 'human_direct_message', '--actor', 'human', '--summary', summary, '--db', db]).status).toBe(0);
};
/**
 * A check of everything the server watches, made now instead of waiting out its periodic ones (every
 * CHECK_INTERVAL_MS): a subscription to another session is answered (a listen stream acknowledged) only after
 * such a check, so whatever that check told arrived first. The subscription is ended at once.
 */
async function checkNow(session: Session): Promise<void> {
  const uri = 'session-state://sessions/agent:elsewhere:main';
  if (session.client.getProtocolEra() === 'modern') await (await session.client.listen({ resourceSubscriptions: [uri] })).close();
  else {
    await session.client.subscribeResource({ uri });
    await session.client.unsubscribeResource({ uri });
  }
}

describe('on the 2025-11-25 handshake, with --reader and --allow-write', () => {
  let session: Session;
  beforeAll(async () => {
    session = await connect(['--db', db, '--reader', MANAGER, '--allow-write']);
  });
  afterAll(async () => {
    await session.client.close();
  });

  test('lists both templates, the reader\'s notices and the sessions it watches, and reads each kind', async () => {
    const { resourceTemplates } = await session.client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(['session-state://sessions/{sessionKey}', 'session-state://watchers/{watcherKey}/notices']);
    expect((await session.client.listResources()).resources.map((resource) => resource.uri)).toEqual([NOTICES, SESSION]);

    // The session resource is the status shape: what `status --json` prints, without `exists` and `pruneWatermark`.
    const { exists: _exists, pruneWatermark: _watermark, ...status } = jsonOf<Record<string, unknown>>(await runCli(['status', CHILD, '--json', '--db', db]));
    expect(await readJson(session, SESSION)).toEqual(status);
    expect(status).toEqual({ sessionKey: CHILD, stateVersion: 1 });
    // The key percent-encoded as RFC 6570 expands it names the same resource.
    expect(await readJson(session, SESSION.replace(/:/gu, '%3A').replace('session-state%3A', 'session-state:'))).toEqual(status);
    expect(await readJson(session, NOTICES)).toEqual([]);
  });

  test('a URI the server does not serve is a protocol error, for a read and for a subscribe', async () => {
    for (const uri of ['session-state://watchers/agent:ops:main/notices', 'file:///etc/hosts', 'session-state://sessions/not%20a%20key']) {
      await expect(session.client.readResource({ uri })).rejects.toMatchObject({ code: -32602 });
      await expect(session.client.subscribeResource({ uri })).rejects.toMatchObject({ code: -32602 });
    }
  });

  test('subscribed: each of its own records updates the session once, and the notice it raised comes back attached to its answer, so it is never left pending', async () => {
    await session.client.subscribeResource({ uri: SESSION });
    await session.client.subscribeResource({ uri: NOTICES });

    const first = await session.client.callTool({ name: 'record', arguments: humanTurn('a human message') });
    expect(first.structuredContent).toMatchObject({ outcome: 'recorded' });
    expect(noticesOf(first)).toEqual([{ watcher: MANAGER, target: CHILD, changesSince: 1, text: specNotice(CHILD, 1) }]);
    expect(await session.updates(1, undefined, SESSION)).toEqual([SESSION]);
    expect(await readJson(session, NOTICES)).toEqual([]);

    // Written, so confirmed: the next change is a new notice from there, attached to the next answer.
    const second = await session.client.callTool({ name: 'record', arguments: humanTurn('another one') });
    expect(noticesOf(second).map((notice) => notice.changesSince)).toEqual([2]);
    expect(await session.updates(2, undefined, SESSION)).toEqual([SESSION, SESSION]);
    expect(await readJson(session, NOTICES)).toEqual([]);
  });

  test('another process records: one update per change of the head; a burst between two checks is one update', async () => {
    const before = session.updated.filter((uri) => uri === SESSION).length;
    recordElsewhere('from another process');
    await session.updates(before + 1, undefined, SESSION);

    const burst = await Promise.all(['one', 'two', 'three'].map((summary) => gateway.record(humanTurn(summary))));
    expect(burst.map((result) => result.outcome)).toEqual(['recorded', 'recorded', 'recorded']);
    await session.updates(before + 2, undefined, SESSION);
    await checkNow(session);
    expect(session.updated.filter((uri) => uri === SESSION)).toHaveLength(before + 2);
  });

  test('a new watch by the reader changes the listing: list_changed, and the session is listed', async () => {
    expect(session.listChanged()).toBe(0);
    expect((await gateway.childSpawned({ parentKey: MANAGER, childKey: OTHER_CHILD })).ok).toBe(true);
    for (let waited = 0; session.listChanged() === 0 && waited < 10_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));

    expect(session.listChanged()).toBe(1);
    expect((await session.client.listResources()).resources.map((resource) => resource.uri)).toEqual([NOTICES, SESSION, `session-state://sessions/${OTHER_CHILD}`]);
  });

  test('unsubscribed, a change is not told', async () => {
    await session.client.unsubscribeResource({ uri: SESSION });
    await session.client.unsubscribeResource({ uri: NOTICES });
    const before = session.updated.length;

    recordElsewhere('nobody listens');
    await checkNow(session);

    expect(session.updated).toHaveLength(before);
    expect(session.protocolErrors).toEqual([]);
    expect(session.stderr()).toBe('');
  });
});

test('on 2026-07-28, a subscriptions/listen stream gets the updates of the URIs it names until it is closed', async () => {
  const session = await connect(['--db', db, '--reader', MANAGER], { modern: true });
  try {
    expect(session.client.getProtocolEra()).toBe('modern');
    const subscription = await session.client.listen({ resourceSubscriptions: [SESSION, NOTICES] });
    expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: [SESSION, NOTICES] });
    expect(await readJson(session, SESSION)).toMatchObject({ sessionKey: CHILD });

    recordElsewhere('seen on the stream');
    expect(await session.updates(1)).toEqual([SESSION]);

    await subscription.close();
    recordElsewhere('after the stream closed');
    await checkNow(session);
    expect(session.updated).toEqual([SESSION]);
    expect(session.stderr()).toBe('');
  } finally {
    await session.client.close();
  }
});
