// The port's pair order for anything naming a watcher and a target (notices merged from two reads).

/** Orders by watcher, then target (code-unit order, as the keys' COLLATE "C"). */
export function comparePairs(a: { readonly watcher: string; readonly target: string }, b: { readonly watcher: string; readonly target: string }): number {
  if (a.watcher !== b.watcher) return a.watcher < b.watcher ? -1 : 1;
  if (a.target !== b.target) return a.target < b.target ? -1 : 1;
  return 0;
}
