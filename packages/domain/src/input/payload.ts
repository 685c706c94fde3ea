// Event payloads: a small plain JSON object of metadata, taken from the caller's value once: what
// a store writes later is exactly the private copy checked here.
import * as t from 'io-ts';

export const PAYLOAD_MAX_BYTES = 4096;
const MAX_DEPTH = 16;
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };
export type Payload = { readonly [key: string]: JsonValue };

/** A payload as validated: a plain copy no caller holds, and its JSON text (what JSON.stringify gives for the copy). */
interface TakenPayload {
  readonly value: Payload;
  readonly json: string;
}

function isPlainObject(u: unknown): u is Record<string, unknown> {
  if (typeof u !== 'object' || u === null || Array.isArray(u)) return false;
  const proto = Object.getPrototypeOf(u) as unknown;
  return proto === Object.prototype || proto === null;
}

const TEXT = 'well-formed text without NUL (no unpaired surrogate, no \\u0000)';

class Oversized {}
/** A refused value; `path` is filled in (innermost key first, then reversed) as the walk unwinds. */
class Refused {
  readonly path: string[] = [];
  constructor(
    readonly value: unknown,
    readonly expected: string,
  ) {}
}

/**
 * One walk over the caller's value: each property read once into the copy and written once into
 * the JSON text, its size counted as it goes, so an oversized payload is refused as soon as it
 * passes the cap (O(the cap)).
 */
class PayloadWalk {
  private bytes = 0;
  private json = '';

  take(u: unknown): TakenPayload {
    if (!isPlainObject(u)) throw new Refused(u, `a plain JSON object of at most ${PAYLOAD_MAX_BYTES} bytes`);
    const value = this.object(u, 0) as Payload;
    return { value, json: this.json };
  }

  /** Writes `text` (punctuation, a literal, a quoted string) to the JSON text: `bytes` more UTF-8 bytes. */
  private emit(text: string, bytes = text.length): void {
    this.bytes += bytes;
    if (this.bytes > PAYLOAD_MAX_BYTES) throw new Oversized();
    this.json += text;
  }

  /** Walks `u` as the entry `key` of a container, naming the key in a refusal from below. */
  private entry(key: string, u: unknown, level: number): JsonValue {
    try {
      return this.value(u, level);
    } catch (e) {
      if (e instanceof Refused) e.path.push(key);
      throw e;
    }
  }

  /** Refuses up front when even the smallest text for what is left could not fit. */
  private reserve(minimumBytes: number): void {
    if (this.bytes + minimumBytes > PAYLOAD_MAX_BYTES) throw new Oversized();
  }

  /** Refuses NUL and an unpaired surrogate; counts the UTF-8 bytes of the string's JSON text. */
  private string(s: string): string {
    // The JSON text of a string has at least s.length + 2 bytes: refuse a long one unread.
    this.reserve(s.length + 2);
    let bytes = 2;
    let escapes = false;
    for (let i = 0; i < s.length; i += 1) {
      const code = s.charCodeAt(i);
      if (code < 0x80) {
        if (code < 0x20 || code === 0x22 || code === 0x5c) {
          if (code === 0) throw new Refused(s, TEXT);
          escapes = true;
        }
        bytes += 1;
      } else if (code < 0x800) bytes += 2;
      else if (code >= 0xd800 && code <= 0xdfff) {
        const next = s.charCodeAt(i + 1); // NaN past the end
        if (code >= 0xdc00 || !(next >= 0xdc00 && next <= 0xdfff)) throw new Refused(s, TEXT);
        bytes += 4;
        i += 1;
      } else bytes += 3;
    }
    if (!escapes) this.emit(`"${s}"`, bytes);
    else {
      const quoted = JSON.stringify(s);
      this.emit(quoted, bytes + quoted.length - s.length - 2); // escapes are ASCII: the count grows by their length
    }
    return s;
  }

  /** A value `level` containers below the payload (its own entries are level 1). */
  private value(u: unknown, level: number): JsonValue {
    if (level > MAX_DEPTH) throw new Refused(u, `nesting at most ${MAX_DEPTH} deep`);
    switch (typeof u) {
      case 'string':
        return this.string(u);
      case 'boolean':
        this.emit(u ? 'true' : 'false');
        return u;
      case 'number': {
        if (!Number.isFinite(u)) throw new Refused(u, 'a finite number');
        this.emit(String(u)); // JSON.stringify's text for a finite number; -0 is 0, in the copy too
        return u === 0 ? 0 : u;
      }
      case 'object':
        if (u === null) {
          this.emit('null');
          return null;
        }
        if (Array.isArray(u)) return this.array(u, level);
        if (!isPlainObject(u)) throw new Refused(u, 'a JSON value (a plain object, not a class instance)');
        return this.object(u, level);
      case 'undefined':
        throw new Refused(u, 'a JSON value (omit the property instead of undefined)');
      default:
        throw new Refused(u, 'a JSON value');
    }
  }

  private array(u: readonly unknown[], level: number): readonly JsonValue[] {
    const length = u.length;
    this.reserve(2 * length + 1); // [] and at least one character and a comma per item
    const copy: JsonValue[] = new Array<JsonValue>(length);
    this.emit('[');
    for (let i = 0; i < length; i += 1) {
      if (i > 0) this.emit(',');
      copy[i] = this.entry(String(i), u[i], level + 1);
    }
    this.emit(']');
    return copy;
  }

  private object(u: Record<string, unknown>, level: number): { readonly [key: string]: JsonValue } {
    // Object.keys: own enumerable string keys, in JSON.stringify's order.
    const keys = Object.keys(u);
    this.reserve(5 * keys.length + 1); // {} and at least "":0 and a comma per entry
    const copy: Record<string, JsonValue> = {};
    this.emit('{');
    for (let i = 0; i < keys.length; i += 1) {
      const key = keys[i] as string;
      if (FORBIDDEN_KEYS.has(key)) throw Object.assign(new Refused(key, 'a key other than __proto__, constructor and prototype'), { path: [key] });
      if (i > 0) this.emit(',');
      this.entry(key, key, level); // the key's own text, a refusal naming it
      this.emit(':');
      // The only read of this property: the copy and the text both come from it.
      copy[key] = this.entry(key, u[key], level + 1);
    }
    this.emit('}');
    return copy;
  }
}

/** Decodes the caller's payload into a private copy and its JSON text; a failure names the path below the payload and what it must be. */
export const PayloadInput: t.Type<TakenPayload, TakenPayload, unknown> = new t.Type<TakenPayload, TakenPayload, unknown>(
  `a plain JSON object of at most ${PAYLOAD_MAX_BYTES} bytes`,
  (u): u is TakenPayload => typeof u === 'object' && u !== null && typeof (u as Partial<TakenPayload>).json === 'string',
  (u, c) => {
    try {
      return t.success(new PayloadWalk().take(u));
    } catch (e) {
      if (e instanceof Oversized) return t.failure(u, c, `a plain JSON object of at most ${PAYLOAD_MAX_BYTES} bytes of JSON in all`);
      if (!(e instanceof Refused)) throw e;
      const { value } = e;
      return t.failure(value, [...c, ...e.path.reverse().map((key) => ({ key, type: t.unknown, actual: value }))], e.expected);
    }
  },
  (a) => a,
);
