// A reader of the Prometheus text exposition format (version 0.0.4), strict enough for the tests:
// every sample line must parse, and every sample must belong to a family announced by # TYPE.
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface Family {
  readonly name: string;
  help?: string;
  type?: string;
  readonly samples: Sample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** The value as Prometheus reads it: a float, or NaN/+Inf/-Inf in any letter case. */
function parseValue(text: string): number {
  const lower = text.toLowerCase();
  if (lower === 'nan') return Number.NaN;
  if (lower === '+inf') return Number.POSITIVE_INFINITY;
  if (lower === '-inf') return Number.NEGATIVE_INFINITY;
  const value = Number(text);
  if (Number.isNaN(value)) throw new Error(`not a sample value: ${text}`);
  return value;
}

/** The family a sample belongs to: histogram samples carry a _bucket, _sum or _count suffix. */
function familyOf(families: Map<string, Family>, sample: string): Family {
  const direct = families.get(sample);
  if (direct !== undefined) return direct;
  const base = sample.replace(/_(bucket|sum|count)$/, '');
  const family = families.get(base);
  if (family === undefined || family.type !== 'histogram') throw new Error(`sample ${sample} has no # TYPE line`);
  return family;
}

/** Parses a scrape into its families by name; throws on any line that is not valid exposition text. */
export function parseExposition(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const family = (name: string): Family => {
    let found = families.get(name);
    if (found === undefined) {
      found = { name, samples: [] };
      families.set(name, found);
    }
    return found;
  };
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
    if (meta !== null) {
      const [, kind, name, rest] = meta as unknown as [string, string, string, string];
      if (kind === 'HELP') family(name).help = rest;
      else family(name).type = rest;
      continue;
    }
    const match = SAMPLE.exec(line);
    if (match === null) throw new Error(`not an exposition line: ${line}`);
    const [, name, labelText, value] = match as unknown as [string, string, string | undefined, string];
    const labels: Record<string, string> = {};
    for (const [, key, labelValue] of (labelText ?? '').matchAll(LABEL)) labels[key as string] = labelValue as string;
    familyOf(families, name).samples.push({ name, labels, value: parseValue(value) });
  }
  return families;
}

/** The single unlabelled sample of a counter or gauge family. */
export function valueOf(families: Map<string, Family>, name: string): number {
  const samples = families.get(name)?.samples ?? [];
  if (samples.length !== 1) throw new Error(`${name}: expected one sample, found ${samples.length}`);
  return (samples[0] as Sample).value;
}

/** A histogram's `_count`, `_sum` and cumulative buckets by upper bound. */
export function histogramOf(families: Map<string, Family>, name: string): { count: number; sum: number; buckets: [number, number][] } {
  const samples = families.get(name)?.samples ?? [];
  const pick = (suffix: string): number => samples.find((s) => s.name === `${name}${suffix}`)?.value ?? Number.NaN;
  const buckets = samples.filter((s) => s.name === `${name}_bucket`).map((s): [number, number] => [parseValue(s.labels['le'] ?? 'NaN'), s.value]);
  return { count: pick('_count'), sum: pick('_sum'), buckets };
}
