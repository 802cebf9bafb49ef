// Scopes (docs/api-behaviour.md, "Keys"): fixed per key; `write_blog` implies `read_blog`, which
// implies `read_published` (the Content API's published posts, docs/content-api.md).
export const SCOPES = [
  'read_published',
  'read_blog',
  'write_blog',
  'publish_blog',
  'write_media',
  'read_audit',
  'manage_webhooks',
] as const;
export type Scope = (typeof SCOPES)[number];

const IMPLIES: Partial<Record<Scope, Scope[]>> = { write_blog: ['read_blog'], read_blog: ['read_published'] };

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** The scopes a key effectively has, implied ones added, in the canonical order. */
export function expandScopes(granted: readonly Scope[]): Scope[] {
  const all = new Set<Scope>(granted);
  // Implications chain (write_blog → read_blog → read_published): a Set grows while it is iterated.
  for (const scope of all) for (const implied of IMPLIES[scope] ?? []) all.add(implied);
  return SCOPES.filter((s) => all.has(s));
}

export function serializeScopes(scopes: readonly Scope[]): string {
  return SCOPES.filter((s) => scopes.includes(s)).join(',');
}

export function deserializeScopes(stored: string): Scope[] {
  return stored.split(',').filter(isScope);
}

/**
 * A key that may be embedded in a public page: it reads published content and nothing else. Its
 * requests are also limited per client address (docs/content-api.md, "Limits").
 */
export function isPublishableKey(scopes: readonly Scope[]): boolean {
  return scopes.length === 1 && scopes[0] === 'read_published';
}
