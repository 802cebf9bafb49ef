// The SDK's committed types are what openapi-typescript makes of the service's document today:
// a change to a route or schema without `npm run sdk:types` fails here.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { GENERATED_TYPES_FILE, sdkTypesSource, serviceOpenApiDocument } from '../../scripts/sdk-types.js';

describe('sdk/src/generated/openapi.ts', () => {
  it('matches the service’s OpenAPI document (run `npm run sdk:types` when this fails)', async () => {
    const document = await serviceOpenApiDocument();
    assert.ok((document.paths as Record<string, unknown>)['/v1/blog/posts'], 'the document describes the API');
    const expected = await sdkTypesSource(document);
    assert.ok(expected.includes('Post: {'), 'named schemas are generated');
    assert.equal(readFileSync(GENERATED_TYPES_FILE, 'utf8'), expected, 'stale: run `npm run sdk:types`');
  });
});
