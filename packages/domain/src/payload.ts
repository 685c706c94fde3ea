// Event payloads: a small plain JSON object of metadata (at most 4 KiB serialised).
import * as t from 'io-ts';

export const PAYLOAD_MAX_BYTES = 4096;
const MAX_DEPTH = 16;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };
export type Payload = { readonly [key: string]: JsonValue };

function isPlainObject(u: unknown): u is Record<string, unknown> {
  if (typeof u !== 'object' || u === null || Array.isArray(u)) return false;
  const proto = Object.getPrototypeOf(u) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Why `u` is not plain JSON (finite numbers, no functions, no class instances, no cycles), or undefined. */
function jsonProblem(u: unknown, depth: number): string | undefined {
  if (depth > MAX_DEPTH) return `nesting deeper than ${MAX_DEPTH}`;
  switch (typeof u) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(u) ? undefined : 'a non-finite number';
    case 'object': {
      if (u === null) return undefined;
      if (Array.isArray(u)) {
        for (const item of u) {
          const problem = jsonProblem(item, depth + 1);
          if (problem !== undefined) return problem;
        }
        return undefined;
      }
      if (!isPlainObject(u)) return 'a non-plain object';
      for (const key of Object.keys(u)) {
        if (FORBIDDEN_KEYS.has(key)) return `the reserved key "${key}"`;
        const problem = jsonProblem(u[key], depth + 1);
        if (problem !== undefined) return problem;
      }
      return undefined;
    }
    case 'undefined':
      return 'an undefined value (omit the property instead)';
    default:
      return `a ${typeof u}`;
  }
}

/** UTF-8 length of a string, computed here so the domain needs no platform API. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code < 0xdc00 && i + 1 < text.length) {
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

export function payloadBytes(payload: Payload): number {
  return utf8Length(JSON.stringify(payload));
}

const EXPECTED = `a plain JSON object of at most ${PAYLOAD_MAX_BYTES} bytes`;

export const Payload = new t.Type<Payload, Payload, unknown>(
  EXPECTED,
  (u): u is Payload => isPlainObject(u) && jsonProblem(u, 0) === undefined,
  (u, c) => {
    if (!isPlainObject(u)) return t.failure(u, c);
    const problem = jsonProblem(u, 0);
    if (problem !== undefined) return t.failure(u, c, `${EXPECTED}, without ${problem}`);
    const bytes = payloadBytes(u as Payload);
    if (bytes > PAYLOAD_MAX_BYTES) return t.failure(u, c, `${EXPECTED} (it has ${bytes})`);
    return t.success(u as Payload);
  },
  (a) => a,
);
