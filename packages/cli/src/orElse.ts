// Reading what may not be there (a file, a path's links, a URL's parts), where a throw means "absent".

/** What `read` returns, or `fallback` when it throws. */
export function orElse<T, F>(read: () => T, fallback: F): T | F {
  try {
    return read();
  } catch {
    return fallback;
  }
}
