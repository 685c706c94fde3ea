// Battery sizes: small enough by default for CI on two cores, multiplied by RELIABILITY_SCALE.

/** The multiplier from `RELIABILITY_SCALE` (default 1; anything not a positive number counts as 1). */
export const RELIABILITY_SCALE: number = (() => {
  const raw = Number(process.env['RELIABILITY_SCALE'] ?? '1');
  return Number.isFinite(raw) && raw > 0 ? raw : 1;
})();

/** `base` times the scale, rounded, at least 1. */
export function scaled(base: number): number {
  return Math.max(1, Math.round(base * RELIABILITY_SCALE));
}

/** A jest timeout for a battery whose default run takes well under `baseMs`, grown with the scale. */
export function scaledTimeout(baseMs: number): number {
  return Math.round(baseMs * Math.max(1, RELIABILITY_SCALE) * 2);
}
