// The SDK's closed lists (sdk/src/vocabulary.ts) are the service's own: scopes, audit actions,
// webhook event types and the page size range.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AUDIT_ACTIONS, SCOPES, WEBHOOK_EVENT_TYPES } from 'store-blog-sdk';
import { AUDIT_ACTIONS as SERVICE_AUDIT_ACTIONS } from '../../src/modules/audit/audit-recorder.js';
import { SCOPES as SERVICE_SCOPES } from '../../src/modules/keys/scopes.js';
import { WEBHOOK_EVENT_TYPES as SERVICE_EVENT_TYPES } from '../../src/modules/events/index.js';
import { serviceOpenApiDocument } from '../../scripts/sdk-types.js';

describe('store-blog-sdk vocabulary', () => {
  it('lists the service’s scopes, audit actions and webhook event types', () => {
    assert.deepEqual([...SCOPES], [...SERVICE_SCOPES]);
    assert.deepEqual([...AUDIT_ACTIONS], [...SERVICE_AUDIT_ACTIONS]);
    assert.deepEqual([...WEBHOOK_EVENT_TYPES], [...SERVICE_EVENT_TYPES]);
  });

  it('PageLimit is the range the service accepts for limit', async () => {
    const document = (await serviceOpenApiDocument()) as {
      paths: Record<
        string,
        { get?: { parameters?: Array<{ name: string; schema: { minimum?: number; maximum?: number } }> } }
      >;
    };
    for (const path of ['/v1/blog/posts', '/v1/audit/events', '/v1/webhooks/{id}/deliveries']) {
      const limit = document.paths[path]?.get?.parameters?.find((p) => p.name === 'limit');
      assert.deepEqual([limit?.schema.minimum, limit?.schema.maximum], [1, 50], path);
    }
  });
});
