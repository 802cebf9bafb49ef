// The plain text at the start of a filtered body, for a description when a post has no summary.
import { Parser } from 'htmlparser2';

export function textExcerpt(bodyHtml: string, maxChars = 160): string {
  let text = '';
  const parser = new Parser({
    ontext(chunk) {
      if (text.length <= maxChars) text += chunk;
    },
  });
  parser.write(bodyHtml);
  parser.end();
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > maxChars ? `${flat.slice(0, maxChars - 1).trimEnd()}…` : flat;
}
