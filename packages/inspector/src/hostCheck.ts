// The Host check against DNS rebinding: a page on another name that resolves to this machine is,
// to the browser, same-origin with the inspector; refusing every Host that is not a name of the
// listening address keeps such a page from reading anything.
import os from 'node:os';

import type { MiddlewareHandler } from 'hono';

/** The loopback names, as they appear in a Host header (an IPv6 address in brackets). */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** Addresses that mean "every interface". */
export const WILDCARD_HOSTS: ReadonlySet<string> = new Set(['0.0.0.0', '::', '[::]']);

/** `host` as it goes in a URL or a Host header: an IPv6 address in brackets, lower case. */
export function urlHost(host: string): string {
  const lower = host.toLowerCase();
  return lower.includes(':') && !lower.startsWith('[') ? `[${lower}]` : lower;
}

/** Whether listening on `host` keeps the server to this machine. */
export function isLoopbackHost(host: string): boolean {
  const name = urlHost(host);
  return LOOPBACK_NAMES.includes(name) || /^127(?:\.\d{1,3}){3}$/u.test(name) || name === '[::ffff:127.0.0.1]';
}

/**
 * The Host header values the server answers to when listening on `host`:`port`. Loopback: the
 * loopback names. A wildcard (0.0.0.0, ::): those, this machine's name and every interface
 * address. Any other host: the host as given.
 */
export function allowedHosts(host: string, port: number): ReadonlySet<string> {
  const names = new Set<string>();
  if (isLoopbackHost(host) || WILDCARD_HOSTS.has(host)) for (const name of LOOPBACK_NAMES) names.add(name);
  if (WILDCARD_HOSTS.has(host)) {
    names.add(os.hostname().toLowerCase());
    for (const address of Object.values(os.networkInterfaces()).flatMap((addresses) => addresses ?? [])) names.add(urlHost(address.address));
  } else {
    names.add(urlHost(host));
  }
  return new Set([...names].map((name) => `${name}:${port}`));
}

/** Refuses (421, a short plain message) a request whose Host header is not one of `allowed()`. */
export function hostGuard(allowed: () => ReadonlySet<string>): MiddlewareHandler {
  return async (c, next) => {
    const host = c.req.header('host')?.toLowerCase();
    if (host === undefined || !allowed().has(host)) {
      return c.text('misdirected request: this inspector answers only to the names of the address it listens on\n', 421);
    }
    await next();
    return undefined;
  };
}
