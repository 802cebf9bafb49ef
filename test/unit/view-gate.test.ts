// The bound on what view beacons can add: one view per (client, post) per window, robots never,
// and the memory for it capped (the oldest entries leave first).
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { isRobot, ViewGate, VIEW_REPEAT_MS } from '../../src/modules/storefront/view-beacon.js';

it('one view per client and post per window; other clients and posts are separate', () => {
  const gate = new ViewGate();
  assert.equal(gate.admit('a', 1, 0), true);
  assert.equal(gate.admit('a', 1, VIEW_REPEAT_MS - 1), false);
  assert.equal(gate.admit('b', 1, 10), true);
  assert.equal(gate.admit('a', 2, 10), true);
  assert.equal(gate.admit('a', 1, VIEW_REPEAT_MS), true, 'the window is over');
  assert.equal(gate.admit('a', 1, VIEW_REPEAT_MS + 1), false, 'and a new one starts');
});

it('keeps at most maxTracked entries: past it, the oldest client may count again', () => {
  const gate = new ViewGate(2);
  assert.equal(gate.admit('a', 1, 0), true);
  assert.equal(gate.admit('b', 1, 1), true);
  assert.equal(gate.admit('a', 1, 2), false, 'still remembered');
  assert.equal(gate.admit('c', 1, 3), true);
  assert.equal(gate.admit('b', 1, 4), false, 'b is newer than a and stays');
  assert.equal(gate.admit('a', 1, 5), true, 'a, the oldest, was dropped to stay within the bound');
});

it('robots: self-declared crawlers, previewers, audit tools, command-line clients and no user agent', () => {
  for (const agent of [
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0)',
    'Twitterbot/1.0',
    'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
    'Mozilla/5.0 (Linux; Android 11) Chrome/131.0 Mobile Safari/537.36 Chrome-Lighthouse',
    'curl/8.5.0',
    'python-requests/2.32',
    '',
    undefined,
  ])
    assert.equal(isRobot(agent), true, String(agent));
  for (const agent of [
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
    'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  ])
    assert.equal(isRobot(agent), false, agent);
});
