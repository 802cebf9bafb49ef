// A worker of the filter comparison's thread rows: the previous filter (sanitize-html) on a worker thread.
import { referenceFilterHtml } from '../../test/helpers/sanitize-html-filter.js';

export default function filterInWorker(html: string) {
  return referenceFilterHtml(html);
}
