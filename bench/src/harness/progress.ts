// Progress on stderr: one line rewritten in place on a TTY, a line per step otherwise.

export type Progress = ReturnType<typeof createProgress>;

/** `update` shows `label` with `done` of `total` (a percentage on a TTY, throttled); `line` writes a line that stays. */
export function createProgress(stream: NodeJS.WriteStream = process.stderr) {
  const tty = stream.isTTY === true;
  let lastLabel = '';
  let lastPaint = 0;
  let dirty = false;
  return {
    update(label: string, done: number, total: number): void {
      const at = Date.now();
      if (!tty) {
        if (label !== lastLabel) stream.write(`… ${label}\n`);
      } else if (label !== lastLabel || done >= total || at - lastPaint >= 100) {
        stream.write(`\r\x1b[2K… ${label} ${total > 0 ? Math.floor((100 * done) / total) : 0}% (${done}/${total})`);
        lastPaint = at;
        dirty = true;
      }
      lastLabel = label;
    },
    line(text: string): void {
      if (tty && dirty) stream.write('\r\x1b[2K');
      dirty = false;
      stream.write(`${text}\n`);
    },
  };
}
