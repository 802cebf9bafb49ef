// One security matrix over every /v1 route: no key, malformed headers, wrong secret, expired,
// revoked, missing scope, and another store's resource.
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { ALL_SCOPES, type RequestOptions } from '../helpers/test-app.js';
import { assertError } from '../helpers/assertions.js';
import { createPost } from '../helpers/posts.js';
import type { Scope } from '../../src/modules/keys/index.js';
import { describeTenantApp } from '../helpers/tenant-app.js';

interface RouteCase {
  name: string;
  scope: Scope | 'any';
  /** Builds the request; `postId` is a post of the victim store. */
  request(postId: number): Omit<RequestOptions, 'key'>;
  /** Whether the route addresses a store resource by id (→ 404 for another store). */
  ownsResource?: boolean;
}

const idem = () => ({ 'idempotency-key': `m-${Math.random()}` });
const ROUTES: RouteCase[] = [
  { name: 'GET /v1/me', scope: 'any', request: () => ({ method: 'GET', url: '/v1/me' }) },
  { name: 'GET /v1/openapi.json', scope: 'any', request: () => ({ method: 'GET', url: '/v1/openapi.json' }) },
  { name: 'GET /v1/audit/events', scope: 'read_audit', request: () => ({ method: 'GET', url: '/v1/audit/events' }) },
  { name: 'GET /v1/blog/posts', scope: 'read_blog', request: () => ({ method: 'GET', url: '/v1/blog/posts' }) },
  {
    name: 'POST /v1/blog/posts',
    scope: 'write_blog',
    request: () => ({
      method: 'POST',
      url: '/v1/blog/posts',
      headers: idem(),
      body: { title: `t${Math.random()}`, body_html: 'b' },
    }),
  },
  {
    name: 'GET /v1/blog/posts/{id}',
    scope: 'read_blog',
    ownsResource: true,
    request: (id) => ({ method: 'GET', url: `/v1/blog/posts/${id}` }),
  },
  {
    name: 'PATCH /v1/blog/posts/{id}',
    scope: 'write_blog',
    ownsResource: true,
    request: (id) => ({ method: 'PATCH', url: `/v1/blog/posts/${id}`, body: { summary: 'x' } }),
  },
  {
    name: 'POST /v1/blog/posts/{id}/publish',
    scope: 'publish_blog',
    ownsResource: true,
    request: (id) => ({ method: 'POST', url: `/v1/blog/posts/${id}/publish` }),
  },
  {
    name: 'POST /v1/blog/posts/{id}/unpublish',
    scope: 'publish_blog',
    ownsResource: true,
    request: (id) => ({ method: 'POST', url: `/v1/blog/posts/${id}/unpublish` }),
  },
  {
    name: 'DELETE /v1/blog/posts/{id}',
    scope: 'write_blog',
    ownsResource: true,
    request: (id) => ({ method: 'DELETE', url: `/v1/blog/posts/${id}` }),
  },
  {
    name: 'GET /v1/blog/categories',
    scope: 'read_blog',
    request: () => ({ method: 'GET', url: '/v1/blog/categories' }),
  },
  {
    name: 'POST /v1/blog/categories',
    scope: 'write_blog',
    request: () => ({
      method: 'POST',
      url: '/v1/blog/categories',
      headers: idem(),
      body: { name: `c${Math.random()}` },
    }),
  },
  {
    name: 'PATCH /v1/blog/categories/{id}',
    scope: 'write_blog',
    request: () => ({ method: 'PATCH', url: '/v1/blog/categories/99999999', body: { name: 'x' } }),
  },
  {
    name: 'DELETE /v1/blog/categories/{id}',
    scope: 'write_blog',
    request: () => ({ method: 'DELETE', url: '/v1/blog/categories/99999999' }),
  },
  {
    name: 'POST /v1/blog/posts/{id}/preview-links',
    scope: 'write_blog',
    ownsResource: true,
    request: (id) => ({ method: 'POST', url: `/v1/blog/posts/${id}/preview-links` }),
  },
  {
    name: 'DELETE /v1/media/images/{id}',
    scope: 'write_media',
    request: () => ({ method: 'DELETE', url: '/v1/media/images/img_aaaaaaaaaaaaaaaaaaaaaaaa' }),
  },
  {
    name: 'POST /v1/media/images',
    scope: 'write_media',
    request: () => ({
      method: 'POST',
      url: '/v1/media/images',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x--\r\n',
    }),
  },
  {
    name: 'POST /v1/webhooks',
    scope: 'manage_webhooks',
    request: () => ({
      method: 'POST',
      url: '/v1/webhooks',
      body: { url: 'https://93.184.215.14/hooks', events: ['*'] },
    }),
  },
  { name: 'GET /v1/webhooks', scope: 'manage_webhooks', request: () => ({ method: 'GET', url: '/v1/webhooks' }) },
  {
    name: 'GET /v1/webhooks/{id}',
    scope: 'manage_webhooks',
    request: () => ({ method: 'GET', url: '/v1/webhooks/wh_unknown' }),
  },
  {
    name: 'PATCH /v1/webhooks/{id}',
    scope: 'manage_webhooks',
    request: () => ({ method: 'PATCH', url: '/v1/webhooks/wh_unknown', body: { enabled: false } }),
  },
  {
    name: 'DELETE /v1/webhooks/{id}',
    scope: 'manage_webhooks',
    request: () => ({ method: 'DELETE', url: '/v1/webhooks/wh_unknown' }),
  },
  {
    name: 'POST /v1/webhooks/{id}/rotate-secret',
    scope: 'manage_webhooks',
    request: () => ({ method: 'POST', url: '/v1/webhooks/wh_unknown/rotate-secret' }),
  },
  {
    name: 'POST /v1/webhooks/{id}/test',
    scope: 'manage_webhooks',
    request: () => ({ method: 'POST', url: '/v1/webhooks/wh_unknown/test' }),
  },
  {
    name: 'GET /v1/webhooks/{id}/deliveries',
    scope: 'manage_webhooks',
    request: () => ({ method: 'GET', url: '/v1/webhooks/wh_unknown/deliveries' }),
  },
  {
    name: 'GET /v1/webhooks/{id}/deliveries/{delivery_id}',
    scope: 'manage_webhooks',
    request: () => ({ method: 'GET', url: '/v1/webhooks/wh_unknown/deliveries/whd_unknown' }),
  },
  {
    name: 'POST /v1/webhooks/{id}/deliveries/{delivery_id}/retry',
    scope: 'manage_webhooks',
    request: () => ({ method: 'POST', url: '/v1/webhooks/wh_unknown/deliveries/whd_unknown/retry' }),
  },
  {
    name: 'POST /v1/webhooks/{id}/replay',
    scope: 'manage_webhooks',
    request: () => ({
      method: 'POST',
      url: '/v1/webhooks/wh_unknown/replay',
      body: { since: '2026-09-14T10:00:00+08:00' },
    }),
  },
  { name: 'GET /v1/events', scope: 'read_blog', request: () => ({ method: 'GET', url: '/v1/events' }) },
  {
    name: 'GET /v1/events/{id}',
    scope: 'read_blog',
    request: () => ({ method: 'GET', url: '/v1/events/msg_aaaaaaaaaaaaaaaaaaaaaaaa' }),
  },
  { name: 'GET /v1/media/images', scope: 'read_blog', request: () => ({ method: 'GET', url: '/v1/media/images' }) },
  {
    name: 'GET /v1/content/posts',
    scope: 'read_published',
    request: () => ({ method: 'GET', url: '/v1/content/posts' }),
  },
  {
    name: 'GET /v1/content/posts/{id}',
    scope: 'read_published',
    request: (id) => ({ method: 'GET', url: `/v1/content/posts/${id}` }),
  },
  {
    name: 'GET /v1/content/categories',
    scope: 'read_published',
    request: () => ({ method: 'GET', url: '/v1/content/categories' }),
  },
  {
    name: 'GET /v1/media/images/{id}',
    scope: 'read_blog',
    request: () => ({ method: 'GET', url: '/v1/media/images/img_aaaaaaaaaaaaaaaaaaaaaaaa' }),
  },
];

/** Scopes that satisfy `scope` by implication (write_blog → read_blog → read_published). */
const IMPLYING: Partial<Record<Scope, Scope[]>> = {
  read_blog: ['write_blog'],
  read_published: ['read_blog', 'write_blog'],
};

/** Scopes that do NOT satisfy `scope`. */
function insufficientScopes(scope: Scope): Scope[] {
  return ALL_SCOPES.filter((s) => s !== scope && !IMPLYING[scope]?.includes(s));
}

describeTenantApp('security matrix over every /v1 route', { tenant: false }, (suite) => {
  let postId: number;
  let expired: string;
  let revoked: string;
  let otherStoreKey: string;
  before(async () => {
    const tenant = await suite.t.tenant();
    suite.key = tenant.key;
    postId = (await createPost(suite.t, suite.key)).id;
    expired = await suite.t.issueKey(tenant.store, undefined, { expiresInDays: 1 });
    revoked = await suite.t.issueKey(tenant.store);
    await suite.t.ctx.keys.revoke(revoked.slice(9, 17));
    otherStoreKey = (await suite.t.tenant()).key;
    suite.t.clock.advance(86_400_000);
  });

  it('every /v1 route of the app is in the matrix', () => {
    for (const r of ROUTES) {
      const [method, path] = r.name.split(' ');
      assert.ok(
        suite.t.app.hasRoute({
          method: method as 'GET',
          url: path.replace('{id}', ':id').replace('{delivery_id}', ':delivery_id'),
        }),
        `${r.name} is registered`,
      );
    }
    // Every /v1 route is described in the OpenAPI document (policy routes only live under /v1).
    const paths = (suite.t.app.swagger() as { paths: Record<string, Record<string, unknown>> }).paths;
    for (const [path, item] of Object.entries(paths)) {
      for (const method of Object.keys(item)) {
        assert.ok(
          ROUTES.some((r) => r.name === `${method.toUpperCase()} ${path}`),
          `${method.toUpperCase()} ${path} has a row in the matrix`,
        );
      }
    }
  });

  for (const route of ROUTES) {
    it(`${route.name}: 401 for no key, malformed headers, wrong secret, expired and revoked keys`, async () => {
      const secret = suite.key.slice(-32);
      const headers = [
        undefined,
        `Bearer  ${suite.key}`,
        `Token ${suite.key}`,
        `Bearer ${suite.key},${suite.key}`,
        `Bearer ${suite.key.slice(0, 17)}_${secret.split('').reverse().join('')}`,
        `Bearer ${expired}`,
        `Bearer ${revoked}`,
      ];
      for (const authorization of headers) {
        const req = route.request(postId);
        const res = await suite.t.request({
          ...req,
          headers: { ...(req.headers ?? {}), ...(authorization ? { authorization } : {}) },
        });
        assertError(res, 'unauthorized');
      }
    });

    if (route.scope !== 'any') {
      const scope = route.scope;
      it(`${route.name}: 403 naming ${scope} for keys without it`, async () => {
        const store = await suite.t.createStore();
        for (const other of insufficientScopes(scope)) {
          const k = await suite.t.issueKey(store, [other]);
          assertError(await suite.t.request({ ...route.request(postId), key: k }), 'insufficient_scope', [
            { field: 'scope', issue: `required: ${scope}` },
          ]);
        }
      });
    }

    if (route.ownsResource) {
      it(`${route.name}: another store's post is 404 not_found`, async () => {
        assertError(await suite.t.request({ ...route.request(postId), key: otherStoreKey }), 'not_found');
      });
    }
  }
});
