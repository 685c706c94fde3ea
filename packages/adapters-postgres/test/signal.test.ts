// The signal payload: the target and its watchers, read back as written; one too long for
// PostgreSQL's NOTIFY names the target alone, which listeners treat as "any watcher".
import { MAX_SIGNAL_PAYLOAD_BYTES, readSignalPayload, signalPayload } from '../src/signals/notify.js';
import { key } from './support/commands.js';

const T = key('agent:t:main');

test('a payload names the target and its watchers, and reads back as written', () => {
  const watchers = [key('agent:w:main'), key('agent:v:subagent:x')];
  expect(readSignalPayload(signalPayload(T, watchers))).toEqual({ target: T, watchers });
  expect(readSignalPayload(T)).toEqual({ target: T });
});

test('a payload too long for NOTIFY names the target alone, so every listener re-reads it', () => {
  // 40 watchers of 500 characters: 20,000 bytes, far past PostgreSQL's 8000-byte limit.
  const watchers = Array.from({ length: 40 }, (_, i) => key(`agent:w:${String(i).padStart(490, '0')}`));
  const payload = signalPayload(T, watchers);
  expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(MAX_SIGNAL_PAYLOAD_BYTES);
  expect(readSignalPayload(payload)).toEqual({ target: T });
});
