// Where post bodies are filtered: worker threads, so that filtering (the largest single cost of
// a write) neither blocks reads on the event loop nor leaves the machine's other cores idle.
import { Piscina } from 'piscina';
import { filterPostHtml, PostHtmlNestingError, type FilteredHtml } from './html-filter.js';
import { isInFilteredForm } from './html-filtered-form.js';
import type { FilterOutcome } from './html-filter-worker.js';

export interface HtmlFilter {
  /** @throws PostHtmlNestingError as filterPostHtml does. */
  filter(html: string): Promise<FilteredHtml>;
  close(): Promise<void>;
}

/**
 * Below this many characters a body is filtered in place. Handing a body to a thread and back
 * costs about as much CPU as filtering a 5 KB body (figures in docs/performance.md), so
 * article-sized bodies are cheaper in place, where they hold the event loop briefly. Longer ones
 * go to a thread, so reads are not held up behind them.
 */
export const FILTER_IN_PLACE_BELOW = 16 * 1024;

/** Filters on the calling thread. */
export const inPlaceFilter: HtmlFilter = {
  filter: async (html) => filterPostHtml(html),
  close: async () => {},
};

/**
 * A pool of `threads` workers (0: in place), started on first use, so a CLI command that never
 * filters starts none. Each worker loads the module next to this one, built or (under tsx) source.
 */
export function threadedFilter(threads: number): HtmlFilter {
  if (threads < 1) return inPlaceFilter;
  let pool: Piscina | null = null;
  const workerFile = new URL(`./html-filter-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);
  return {
    async filter(html) {
      if (html.length < FILTER_IN_PLACE_BELOW) return filterPostHtml(html);
      // A body already in output form costs one scan here, far less than the trip to a thread.
      if (isInFilteredForm(html)) return { html, warnings: [] };
      pool ??= new Piscina({
        filename: workerFile.href,
        minThreads: threads,
        maxThreads: threads,
        idleTimeout: 60_000,
      });
      const outcome = (await pool.run(html)) as FilterOutcome;
      if (!outcome.ok) throw new PostHtmlNestingError();
      return { html: outcome.html, warnings: outcome.warnings };
    },
    async close() {
      await pool?.destroy();
      pool = null;
    },
  };
}
