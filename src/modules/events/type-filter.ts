// `?types=` of the events feed: exact event types and `<resource>.*` prefixes.
import { detail, ApiError } from '../../lib/api-error.js';
import { groupedNames, quotedInput } from '../../lib/name-list.js';
import { CONTENT_ACTIONS } from '../audit/index.js';

export interface TypeFilter {
  exact: string[];
  /** Resource names whose every event type is wanted (`post` for `post.*`). */
  prefixes: string[];
}

const RESOURCES = [...new Set(CONTENT_ACTIONS.map((t) => t.slice(0, t.indexOf('.'))))];

/** The filter of a `types` value, or null for every type; a 422 naming each unknown item. */
export function parseTypeFilter(value: string | undefined, field = 'types'): TypeFilter | null {
  if (value === undefined) return null;
  const items = value.split(',').map((s) => s.trim());
  const filter: TypeFilter = { exact: [], prefixes: [] };
  const problems = [];
  for (const [i, item] of items.entries()) {
    if ((CONTENT_ACTIONS as readonly string[]).includes(item)) filter.exact.push(item);
    else if (item.endsWith('.*') && RESOURCES.includes(item.slice(0, -2))) filter.prefixes.push(item.slice(0, -2));
    else
      problems.push(
        detail(
          `${field}[${i}]`,
          `${quotedInput(item, 20)} is not an event type; use ${groupedNames(CONTENT_ACTIONS)}, or ${RESOURCES.map((r) => `${r}.*`).join(', ')}`,
        ),
      );
  }
  if (problems.length > 0) throw new ApiError('validation_failed', problems);
  return filter;
}

/** Whether an event of `type` passes the filter. */
export function typeMatches(filter: TypeFilter | null, type: string): boolean {
  return filter === null || filter.exact.includes(type) || filter.prefixes.includes(type.slice(0, type.indexOf('.')));
}
