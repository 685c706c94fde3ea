// Well-formed UTF-16: what every string the stores keep must be, since SQLite and PostgreSQL
// store text as UTF-8 and turn an unpaired surrogate into U+FFFD (two distinct keys would then
// share one row).

// With the `u` flag a well-formed surrogate pair is one code point (not Cs): only an unpaired
// surrogate matches.
const UNPAIRED_SURROGATE = /\p{Cs}/u;
const UNPAIRED_SURROGATES = /\p{Cs}/gu;

/** True when `text` holds a surrogate that is not half of a pair (ill-formed UTF-16). */
export function hasUnpairedSurrogate(text: string): boolean {
  return UNPAIRED_SURROGATE.test(text);
}

/** `text` with each unpaired surrogate replaced by U+FFFD, as `String.prototype.toWellFormed` does. */
export function toWellFormed(text: string): string {
  return text.replace(UNPAIRED_SURROGATES, '\uFFFD');
}
