// Runs in a worker thread of the HTML filter pool: one body in, its filtered form out. The pool
// sends only bodies it has already found not to be in filtered form, so the full filter runs at once.
import { PostHtmlNestingError, sanitizePostHtml, type FilteredHtml } from './html-filter.js';

/** Errors do not keep their class across threads, so the one expected failure is a value. */
export type FilterOutcome = ({ ok: true } & FilteredHtml) | { ok: false; tooDeep: true };

export default function filterInWorker(html: string): FilterOutcome {
  try {
    return { ok: true, ...sanitizePostHtml(html) };
  } catch (err) {
    if (err instanceof PostHtmlNestingError) return { ok: false, tooDeep: true };
    throw err;
  }
}
