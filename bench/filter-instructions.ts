// Filters the benchmark's rewritten 5 KB articles `count` times with one filter, for counting
// instructions under valgrind, which other load on the machine does not change. Bundled first,
// because loading through tsx under valgrind takes minutes:
//   npx esbuild bench/filter-instructions.ts --bundle --platform=node --format=esm --outfile=dist/fi.mjs \
//     --external:better-sqlite3 --external:pg --external:sharp \
//     --banner:js="import { createRequire as __cr } from 'module'; const require = __cr(import.meta.url);"
//   valgrind --tool=callgrind --callgrind-out-file=/dev/null node dist/fi.mjs streaming 0
//   valgrind --tool=callgrind --callgrind-out-file=/dev/null node dist/fi.mjs streaming 1000
// and the same for sanitize-html; instructions per body = (the 1000 run − the 0 run) / 1000.
import { sanitizePostHtml } from '../src/modules/posts/html-filter.js';
import { referenceFilterHtml } from '../test/helpers/sanitize-html-filter.js';
import { articleHtml } from './lib/seed.js';

const [which, countText] = process.argv.slice(2);
const filters: Record<string, (html: string) => unknown> = {
  streaming: sanitizePostHtml,
  'sanitize-html': referenceFilterHtml,
};
const filter = filters[which];
const count = Number(countText);
if (!filter || !Number.isInteger(count) || count < 0) {
  process.stderr.write('usage: node --import tsx bench/filter-instructions.ts streaming|sanitize-html COUNT\n');
  process.exit(2);
}
const bodies = Array.from({ length: 16 }, (_, i) => articleHtml(5 * 1024, i + 1).replaceAll('</p>', '<br></p>'));
// The same warm-up in every run, so that the difference between two counts is the filtering alone.
for (let i = 0; i < 200; i++) filter(bodies[i % bodies.length]);
for (let i = 0; i < count; i++) filter(bodies[i % bodies.length]);
