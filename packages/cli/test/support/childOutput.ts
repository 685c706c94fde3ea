// Watching a long-running CLI child (tail): its output as it arrives, and its exit.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';

/** Resolves with the accumulated text once `done` accepts it; rejects after `timeoutMs`. */
export function waitFor(stream: NodeJS.ReadableStream, done: (text: string) => boolean, timeoutMs = 20_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`timed out waiting; got: ${text}`)), timeoutMs);
    stream.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (done(text)) {
        clearTimeout(timer);
        resolve(text);
      }
    });
  });
}

/** The child's exit code (null when a signal ended it). */
export function exitOf(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}
