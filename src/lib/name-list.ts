// Short spellings of lists an error detail names, so the list fits in the 200 characters a detail
// keeps (src/http/error-envelope.ts) instead of being cut where the useful part is.

/** `post.created|updated, image.deleted`: dotted names grouped by what comes before the dot, in order. */
export function groupedNames(names: readonly string[]): string {
  const groups = new Map<string, string[]>();
  for (const name of names) {
    const dot = name.indexOf('.');
    const head = dot === -1 ? name : name.slice(0, dot);
    const tail = dot === -1 ? '' : name.slice(dot + 1);
    groups.set(head, [...(groups.get(head) ?? []), tail]);
  }
  return [...groups].map(([head, tails]) => (tails[0] === '' ? head : `${head}.${tails.join('|')}`)).join(', ');
}

/** A value a client sent, quoted, and cut to `max` characters so the rest of the sentence stays. */
export function quotedInput(value: string, max = 40): string {
  const chars = [...value];
  return `"${chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : value}"`;
}
