// Title rules: trimmed, 1..limits.title_max_length code points, no control characters, and —
// for stores that cannot hold emoji (limits.title_allows_emoji = false) — no emoji and nothing
// outside the Basic Multilingual Plane (the 4-byte UTF-8 characters such stores cannot store).

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
const PICTOGRAPHIC = /\p{Extended_Pictographic}|\u200d|\ufe0f|\u20e3/u;

export type TitleProblem =
  | { kind: 'empty' }
  | { kind: 'too_long'; max: number }
  | { kind: 'control_characters' }
  | { kind: 'unsupported_characters'; characters: string[] };

export function normalizeTitle(raw: string): string {
  return raw.trim();
}

/** Characters a store without emoji support cannot hold, de-duplicated, in order. */
export function unsupportedTitleCharacters(title: string): string[] {
  const found: string[] = [];
  for (const ch of title) {
    const astral = (ch.codePointAt(0) ?? 0) > 0xffff;
    if ((astral || PICTOGRAPHIC.test(ch)) && !found.includes(ch)) found.push(ch);
  }
  return found;
}

export function checkTitle(title: string, rules: { maxLength: number; allowsEmoji: boolean }): TitleProblem | null {
  if (title.length === 0) return { kind: 'empty' };
  if ([...title].length > rules.maxLength) return { kind: 'too_long', max: rules.maxLength };
  if (CONTROL.test(title)) return { kind: 'control_characters' };
  if (!rules.allowsEmoji) {
    const characters = unsupportedTitleCharacters(title);
    if (characters.length > 0) return { kind: 'unsupported_characters', characters };
  }
  return null;
}

/** `😀 (U+1F600)` — both the glyph and its code point, so the client can find it. */
export function describeCharacters(characters: string[]): string {
  return characters
    .map(
      (ch) =>
        `${ch} (${[...ch].map((c) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`).join(' ')})`,
    )
    .join(', ');
}
