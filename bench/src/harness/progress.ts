// Progress on stderr: one line rewritten in place on a TTY, a plain line per step otherwise.

/** Reports what the bench is doing; `done` ends the current line. */
export interface Progress {
  /** Shows `label` with `done` of `total` (a percentage on a TTY, throttled). */
  update(label: string, done: number, total: number): void;
  /** A line that stays: a workload finished, a note. */
  line(text: string): void;
}

export function createProgress(stream: NodeJS.WriteStream = process.stderr): Progress {
  const tty = stream.isTTY === true;
  let lastLabel = '';
  let lastPaint = 0;
  let dirty = false;
  const clear = (): void => {
    if (tty && dirty) stream.write('\r\x1b[2K');
    dirty = false;
  };
  return {
    update(label, done, total) {
      if (!tty) {
        // One line per step when piped: print each label once, not every tick.
        if (label !== lastLabel) stream.write(`… ${label}\n`);
        lastLabel = label;
        return;
      }
      const now = Date.now();
      if (label === lastLabel && done < total && now - lastPaint < 100) return;
      lastLabel = label;
      lastPaint = now;
      const pct = total > 0 ? Math.floor((100 * done) / total) : 0;
      stream.write(`\r\x1b[2K… ${label} ${pct}% (${done}/${total})`);
      dirty = true;
    },
    line(text) {
      clear();
      stream.write(`${text}\n`);
    },
  };
}
