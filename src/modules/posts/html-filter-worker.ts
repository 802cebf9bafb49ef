// Runs in a worker thread of the HTML filter pool: one body in, its filtered form out.
import { filterPostHtml, PostHtmlNestingError, type FilteredHtml } from './html-filter.js';

/** Errors do not keep their class across threads, so the one expected failure is a value. */
export type FilterOutcome = ({ ok: true } & FilteredHtml) | { ok: false; tooDeep: true };

export default function filterInWorker(html: string): FilterOutcome {
  try {
    return { ok: true, ...filterPostHtml(html) };
  } catch (err) {
    if (err instanceof PostHtmlNestingError) return { ok: false, tooDeep: true };
    throw err;
  }
}
