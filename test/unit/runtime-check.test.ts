// The supported Node lines: the start-up refusal, package.json `engines` and the Dockerfile's
// base image agree on them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { MIN_NODE_MAJOR, unsupportedNodeMessage } from '../../src/runtime-check.js';

describe('runtime check', () => {
  it('refuses Node older than 22 with one line naming the version and the fix', () => {
    for (const version of ['v20.20.2', 'v18.0.0', 'v21.7.3']) {
      const message = unsupportedNodeMessage(version);
      assert.ok(message, version);
      assert.ok(!message.includes('\n'));
      assert.match(
        message,
        new RegExp(
          `Node\\.js ${version.replace(/\./g, '\\.')} is not supported; this release needs Node\\.js 22 or newer`,
        ),
      );
      assert.match(message, /scripts\/node\.sh 24/);
    }
  });

  it('accepts the supported lines and newer ones', () => {
    for (const version of ['v22.0.0', 'v22.23.3', 'v24.21.0', 'v26.1.0'])
      assert.equal(unsupportedNodeMessage(version), null, version);
  });

  it('this process runs on a supported line', () => {
    assert.equal(unsupportedNodeMessage(process.version), null);
  });

  it('package.json engines and the Dockerfile agree with the check', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
    assert.equal(pkg.engines.node, `>=${MIN_NODE_MAJOR}`);
    assert.match(pkg.dependencies['better-sqlite3'], /^\^13\./);
    const stages = [...readFileSync('Dockerfile', 'utf8').matchAll(/^FROM (\S+)(?: AS (\S+))?/gm)];
    const names = new Set(stages.map((m) => m[2]).filter(Boolean));
    // Every stage starts from the pinned base or from an earlier stage.
    const froms = stages.map((m) => m[1]).filter((from) => !names.has(from));
    assert.ok(froms.length >= 2);
    for (const from of froms) assert.match(from, /^node:24\.\d+\.\d+-bookworm-slim/, from);
  });
});
