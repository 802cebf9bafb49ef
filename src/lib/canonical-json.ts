// One JSON form for "the same value", whatever the order of its keys (docs/api-behaviour.md:
// sameness of an idempotent request ignores key order; a cursor's conditions likewise).

/**
 * JSON with every object's keys sorted; `undefined` is written as null. The keys are sorted into
 * a copy that is stringified once, so long strings (a post body) are escaped by one native pass.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(withSortedKeys(value) ?? null);
}

function withSortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => withSortedKeys(item) ?? null);
  if (value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort())
    sorted[key] = withSortedKeys((value as Record<string, unknown>)[key]) ?? null;
  return sorted;
}
