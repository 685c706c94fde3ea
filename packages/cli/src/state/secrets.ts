// The secrets a --db value may carry (a URL's password, secret query parameters) and their
// removal from every line the command-line tool prints on stderr, driver messages included.
import { orElse } from '../orElse.js';

/**
 * A URL's start: leading blanks, a scheme of two or more characters in any case, `:` and at
 * least one `/` (so `postgres:/h` typed with one slash still counts); `C:\…`, `C:/…` and
 * `./a:b` are paths.
 */
const URL_PREFIX = /^\s*([a-z][a-z0-9+.-]+):\/+/iu;

/** The lower-cased scheme of a URL-ish `value` (`postgresql` for ` PostgreSQL://h`), or undefined for a path. */
export function urlScheme(value: string): string | undefined {
  return URL_PREFIX.exec(value)?.[1]?.toLowerCase();
}

export const MASK = '***';

/**
 * Query parameters whose values are shown in messages: libpq's connection settings that hold no
 * secret. Every other parameter's value (password, sslpassword, passfile, sslkey, options, and
 * any name not listed, however it is spelt or percent-encoded) is masked.
 */
const SHOWN_PARAMETERS: ReadonlySet<string> = new Set([
  'application_name', 'channel_binding', 'client_encoding', 'connect_timeout', 'dbname', 'fallback_application_name', 'gssencmode', 'host',
  'hostaddr', 'keepalives', 'keepalives_count', 'keepalives_idle', 'keepalives_interval', 'port', 'sslmode', 'target_session_attrs', 'user',
]);

const decoded = (text: string): string | undefined => orElse(() => decodeURIComponent(text.replace(/\+/gu, ' ')), undefined);

const isShownParameter = (rawName: string): boolean => SHOWN_PARAMETERS.has(decoded(rawName)?.trim().toLowerCase() ?? '');

/**
 * What follows the prefix: the user info (user, and the password after its first `:`), the
 * location (host, port, path), the query and the fragment. The user info ends at the LAST `@`, as
 * URL parsers read it, so a password holding an unencoded `@`, `/` or `?` is taken whole (masking
 * too much is harmless).
 */
const URL_REST = /^(?:(?<user>[^:]*)(?::(?<password>.*))?@)?(?<location>[^?#]*)(?:\?(?<query>[^#]*))?(?:#(?<fragment>.*))?$/su;

/** A URL-ish value in parts (`prefix`: up to and including the slashes after the scheme), or undefined for a path. */
function splitUrl(value: string) {
  const prefix = URL_PREFIX.exec(value)?.[0];
  if (prefix === undefined) return undefined;
  const { user, password, location = '', query, fragment }: Partial<Record<string, string>> = URL_REST.exec(value.slice(prefix.length))?.groups ?? {};
  return { prefix, user, password, location, query, fragment };
}

/** The query's parameters: each one's raw name, raw value (none without `=`) and the `&` or `;` before it. */
function parametersOf(query: string): { readonly name: string; readonly value?: string; readonly separator: string }[] {
  return query.split(/(?=[&;])/u).map((piece) => {
    const separator = /^[&;]/u.test(piece) ? piece.charAt(0) : '';
    const pair = piece.slice(separator.length);
    const equals = pair.indexOf('=');
    return equals < 0 ? { name: pair, separator } : { name: pair.slice(0, equals), value: pair.slice(equals + 1), separator };
  });
}

/**
 * The value with its secrets replaced by `***`: the password of the user info, the value of
 * every query parameter not known to be harmless, and the fragment. Safe to print. A value
 * that is not URL-ish (a file path) is returned as it is.
 *
 * @example maskUrl('postgres://app:s3cret@db:5432/state?sslpassword=x') // 'postgres://app:***@db:5432/state?sslpassword=***'
 */
export function maskUrl(value: string): string {
  const parts = splitUrl(value);
  if (parts === undefined) return value;
  const userInfo = parts.user === undefined ? '' : `${parts.user}${parts.password === undefined ? '' : `:${MASK}`}@`;
  const query =
    parts.query === undefined
      ? ''
      : `?${parametersOf(parts.query)
          .map(({ name, value: v, separator }) => `${separator}${name}${v === undefined ? '' : `=${isShownParameter(name) ? v : MASK}`}`)
          .join('')}`;
  const fragment = parts.fragment === undefined ? '' : `#${MASK}`;
  return `${parts.prefix}${userInfo}${parts.location}${query}${fragment}`;
}

/** Every secret `value` carries, as typed and percent-decoded (empty ones left out). */
export function secretsOf(value: string): string[] {
  const parts = splitUrl(value.trim());
  if (parts === undefined) return [];
  const hidden = parametersOf(parts.query ?? '').filter((p) => !isShownParameter(p.name));
  const raw = [parts.password, ...hidden.map((p) => p.value), parts.fragment].filter((text) => text !== undefined);
  const all = raw.flatMap((text) => [text, decoded(text) ?? text]).filter((text) => text.length > 0);
  return [...new Set(all)];
}

/** A secret this short would garble unrelated words, so it is replaced only as a whole word. */
const SHORT_SECRET = 4;

/**
 * Removes from `text` every --db value that carries a secret (replaced by its masked form) and
 * then every secret itself, so a driver message quoting a password or a whole URL prints masked.
 */
export function redactWith(values: readonly string[], text: string): string {
  let out = text;
  for (const value of [...values].sort((a, b) => b.length - a.length)) {
    if (secretsOf(value).length === 0) continue;
    for (const spelling of new Set([value, value.trim()])) out = out.split(spelling).join(maskUrl(spelling));
  }
  const secrets = [...new Set(values.flatMap(secretsOf))].sort((a, b) => b.length - a.length);
  for (const secret of secrets) {
    const escaped = secret.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
    out = secret.length >= SHORT_SECRET ? out.split(secret).join(MASK) : out.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'gu'), MASK);
  }
  return out;
}

/** Removes the secrets of one run's --db values from a line before it is printed. */
export type Redact = (text: string) => string;

/**
 * The redaction for one run: every --db value of its arguments and environment, whose secrets it
 * removes from each line (`text` unchanged when there are none). Every stderr line goes through it.
 *
 * @example redactorFor(dbValuesOf(argv, env['SESSION_STATE_DB']))('connect to postgres://u:pw@h failed')
 */
export function redactorFor(values: readonly string[]): Redact {
  return (text) => redactWith(values, text);
}

/** The --db values a command line and environment may carry: `--db X`, `--db=X`, and the environment variable. */
export function dbValuesOf(argv: readonly string[], envValue: string | undefined): string[] {
  const values: string[] = envValue === undefined ? [] : [envValue];
  argv.forEach((arg, i) => {
    if (arg === '--db' && i + 1 < argv.length) values.push(argv[i + 1] ?? '');
    else if (arg.startsWith('--db=')) values.push(arg.slice('--db='.length));
  });
  return values;
}
