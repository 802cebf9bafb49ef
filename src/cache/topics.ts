// The cache topics: the one list of what cached values depend on. Everything else about a topic
// is derived from it: the TypeScript versions (CacheVersions, the cache_versions columns read),
// SQLite's change watching, and the Lua scripts that keep copies of the versions in Redis.
//
// Adding a topic touches this list plus one new migration (PostgreSQL) that adds the
// `<name>_version` column to cache_versions, redefines cache_version_bump() to grow it, and
// creates a constraint trigger calling cache_version_bump('<name>') on each of the topic's tables
// ('all' on a table every topic is read from). Released migrations never change, so the triggers
// are not derived from this list but checked against it: test/api/cache-topics.test.ts reads
// them from a migrated database.
// See docs/architecture.md, "Caches".

export interface TopicDefinition {
  /** The key in CacheVersions and the topic's field in a store's Redis hash (src/cache/shared-versions.ts); the PostgreSQL column is `<name>_version`. */
  readonly name: string;
  /** The tables the topic's values are read from: a write to any of them gives it a new version. */
  readonly tables: readonly string[];
}

export const TOPICS = [
  /** A verified key, its limits, its store's gates. */
  { name: 'keys', tables: ['api_keys', 'stores'] },
  /** Presented posts and list pages. */
  { name: 'content', tables: ['posts', 'post_categories', 'categories', 'images', 'stores'] },
  /** /v1/me's quotas. */
  { name: 'usage', tables: ['daily_usage', 'stores'] },
] as const satisfies readonly TopicDefinition[];

export type Topic = (typeof TOPICS)[number]['name'];

/** The cache_versions column of each topic (PostgreSQL). */
export type VersionColumn = `${Topic}_version`;

export const TOPIC_NAMES: readonly Topic[] = TOPICS.map((topic) => topic.name);

export const versionColumn = (topic: Topic): VersionColumn => `${topic}_version`;

/** The cache_versions columns, in the order of TOPICS. */
export const VERSION_COLUMNS: readonly VersionColumn[] = TOPIC_NAMES.map(versionColumn);

/** The topics' fields of a store's Redis hash, in the order of TOPICS. */
export const TOPIC_FIELDS: readonly string[] = TOPIC_NAMES;

/** The hash field that grows with every drop of the copies (not a topic). */
export const GEN_FIELD = 'gen';

/** The fields a request reads from its store's hash, in this order: the topics', then gen. */
export const REDIS_HASH_FIELDS: readonly string[] = [...TOPIC_FIELDS, GEN_FIELD];

/** Lua string literals for a list of names, comma-separated: `'keys', 'content', 'usage'`. */
export function luaStrings(names: readonly string[]): string {
  for (const name of names) if (!/^[a-z_]+$/.test(name)) throw new Error(`not a plain field name: ${name}`);
  return names.map((name) => `'${name}'`).join(', ');
}
