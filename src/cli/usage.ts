// Usage text per command, cut from the one usage listing so the two never disagree: an entry
// starts at a line indented by two spaces, and deeper-indented lines continue it.

export interface UsageEntry {
  /** The command words, e.g. ["key", "issue"] or ["migrate"]. */
  words: string[];
  lines: string[];
}

export function usageEntries(usage: string): UsageEntry[] {
  const entries: UsageEntry[] = [];
  for (const line of usage.split('\n')) {
    if (/^ {2}\S/.test(line)) {
      const words = line
        .trim()
        .split(/\s+/)
        .filter((w) => /^[a-z][a-z-]*$/.test(w))
        .slice(0, 2);
      entries.push({ words, lines: [line] });
    } else if (/^ {3,}\S/.test(line) && entries.length > 0) {
      entries[entries.length - 1].lines.push(line);
    }
  }
  return entries;
}

const PREFIX = 'usage: blog-api ';

/**
 * The usage of one command (`key issue`), else of one group's commands (`key`), else the whole
 * listing. Continuation lines keep their alignment under the command.
 */
export function usageFor(usage: string, group?: string, sub?: string): string {
  const entries = usageEntries(usage);
  const command = entries.find((e) => e.words[0] === group && (e.words.length === 1 || e.words[1] === sub));
  if (command) {
    const shift = ' '.repeat(PREFIX.length - 2);
    const [first, ...rest] = command.lines;
    return [`${PREFIX}${first.trim()}`, ...rest.map((l) => shift + l)].join('\n');
  }
  const groupEntries = entries.filter((e) => e.words[0] === group);
  if (groupEntries.length > 0)
    return [`${PREFIX}${group} <command>`, ...groupEntries.flatMap((e) => e.lines)].join('\n');
  return usage;
}

/** Whether the command is known at all (a group or a single-word command). */
export function isKnownCommand(usage: string, group: string): boolean {
  return usageEntries(usage).some((e) => e.words[0] === group);
}
