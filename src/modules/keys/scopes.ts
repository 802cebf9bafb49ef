// Scopes (docs/api-behaviour.md, "Keys"): fixed per key; `write_blog` implies `read_blog`.
export const SCOPES = [
  'read_blog',
  'write_blog',
  'publish_blog',
  'write_media',
  'read_audit',
  'manage_webhooks',
] as const;
export type Scope = (typeof SCOPES)[number];

const IMPLIES: Partial<Record<Scope, Scope[]>> = { write_blog: ['read_blog'] };

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** The scopes a key effectively has, implied ones added, in the canonical order. */
export function expandScopes(granted: readonly Scope[]): Scope[] {
  const all = new Set<Scope>(granted);
  for (const scope of granted) for (const implied of IMPLIES[scope] ?? []) all.add(implied);
  return SCOPES.filter((s) => all.has(s));
}

export function serializeScopes(scopes: readonly Scope[]): string {
  return SCOPES.filter((s) => scopes.includes(s)).join(',');
}

export function deserializeScopes(stored: string): Scope[] {
  return stored.split(',').filter(isScope);
}
