// Generated from the service's OpenAPI document by scripts/sdk-types.ts (openapi-typescript).
// Do not edit: run `npm run sdk:types` after changing a route or schema.
export interface paths {
    "/v1/audit/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List audit events, newest first
         * @description Every change to the store’s content and webhooks, newest first, filtered by action, resource, key or time range, one page at a time (follow meta.next_cursor). Events are kept for the retention period in docs.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        get: operations["listAuditEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/blog/categories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * All categories at once, ordered by id
         * @description The whole category tree of the store in one answer (not paged), ordered by id; build the tree from parent_id and depth.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        get: operations["listCategories"];
        put?: never;
        /**
         * Create a category (optionally under a parent)
         * @description Creates a category at the top level or under parent_id, within the store’s depth limit. Requires an Idempotency-Key. The same name under the same parent answers 409 category_name_conflict with the existing category’s id in details: reuse it.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        post: operations["createCategory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/blog/categories/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a category without children
         * @description While the category has children: 409 category_has_children (details name them). Otherwise, in one transaction, the category leaves every post’s category_ids and default_category_id becomes null where it pointed at it; each such post gets a new updated_at and an audit event post.updated, and the category an audit event and a webhook category.deleted.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        delete: operations["deleteCategory"];
        options?: never;
        head?: never;
        /**
         * Rename and/or move a category
         * @description name renames (unique under the parent, else 409 category_name_conflict); parent_id moves the category with its subtree (null: to the root). Moving under itself or a descendant, or so that the deepest category of the subtree passes limits.category_max_depth, is 422 validation_failed naming parent_id. Audit event and webhook category.updated.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        patch: operations["updateCategory"];
        trace?: never;
    };
    "/v1/blog/posts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List posts, newest first
         * @description Posts of the store, newest first, without body_html, one page at a time: pass meta.next_cursor as cursor until it is null. Filter by status (derived from published_at and the current time) or category.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        get: operations["listPosts"];
        put?: never;
        /**
         * Create a post (always a draft)
         * @description Creates a draft. Requires an Idempotency-Key: a retry with the same key and body answers the first result (Idempotent-Replayed: true) instead of creating twice. The body is filtered by an allow-list; what was removed is listed in warnings. The same title and body within ten minutes answers 409 duplicate_content. Counts against the daily post quota.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        post: operations["createPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/blog/posts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a post
         * @description One post with its body. The answer carries an ETag; send it as If-None-Match to get 304 with no body while the post is unchanged.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        get: operations["getPost"];
        put?: never;
        post?: never;
        /**
         * Delete a draft in two calls: without a body (409 confirmation_required with a token), then with the token
         * @description Deletes a draft in two calls. The first, without a body, answers 409 confirmation_required with a confirmation_token in details (valid 5 minutes, for this post and this key). The second sends {confirmation_token} and answers 204. Published or scheduled posts are refused (409 post_is_published): unpublish first. Accepts If-Match on either call.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        delete: operations["deletePost"];
        options?: never;
        head?: never;
        /**
         * Update a post
         * @description Changes the fields sent (at least one); the others stay. Send the ETag you read as If-Match to be refused with 412 precondition_failed, writing nothing, if someone changed the post since.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        patch: operations["updatePost"];
        trace?: never;
    };
    "/v1/blog/posts/{id}/preview-links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a preview link to show a post (draft, scheduled or published) as readers will see it
         * @description Answers an unguessable (signed) url of the store front page of this post as a preview: current content, noindex (meta tag and X-Robots-Tag), a visible preview banner, never counted in view_count, the store front’s strict Content-Security-Policy. After expires_at, or once the post is deleted, the url answers 404. Links are not stored: they cannot be listed or revoked, so keep expires_in_seconds short. See docs/storefront.md.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        post: operations["createPreviewLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/blog/posts/{id}/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Publish now, back-date, or schedule
         * @description Without a body or with published_at null or in the past: published now (or back-dated). With a future published_at: scheduled, and published at that instant. Publishing a post already in that state changes nothing. Accepts If-Match.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        post: operations["publishPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/blog/posts/{id}/unpublish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Return a post to draft
         * @description A published or scheduled post returns to draft; a draft is answered unchanged. Accepts If-Match.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        post: operations["unpublishPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/content/categories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The store’s categories, ordered by id
         * @description The whole category tree of the store in one answer (not paged), as GET /v1/blog/categories. Cacheable: Cache-Control public with max-age and stale-while-revalidate, an ETag (send it as If-None-Match for 304 with no body), Vary: Origin, Authorization.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        get: operations["listPublishedCategories"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/content/posts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Published posts, newest published first
         * @description Only published posts (never drafts or scheduled ones), newest publication first, without body_html, one page at a time: pass meta.next_cursor as cursor until it is null. category_id and q filter as on the management list. Cacheable: Cache-Control public with max-age and stale-while-revalidate, an ETag (send it as If-None-Match for 304 with no body), Vary: Origin, Authorization.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        get: operations["listPublishedPosts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/content/posts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A published post
         * @description One published post with its body. A draft, a scheduled post or an unknown id answers 404 not_found. Cacheable: Cache-Control public with max-age and stale-while-revalidate, an ETag (send it as If-None-Match for 304 with no body), Vary: Origin, Authorization.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        get: operations["getPublishedPost"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The store’s events in commit order, to keep a mirror in sync
         * @description Every change to the store’s posts, categories and images (deletions included), oldest first, in the order they committed, with the same objects webhooks deliver plus the store’s handle and a per-store sequence. Follow meta.next_cursor (always present, also on an empty page) with `after`: a consumer that does so sees every event exactly once. Events are kept EVENT_RETENTION_DAYS days (at least 30); a cursor older than that answers 410 cursor_expired.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one event of the feed by its id
         * @description The event exactly as GET /v1/events lists it, found by its id: the webhook-id header of a delivery, so a receiver can check a delivery against the feed or fetch an event it missed. An unknown id, another store’s event, a webhook.test event and an event past the feed’s retention answer 404 not_found.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        get: operations["getEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Identity, scopes, features, limits, quotas and rate limits of the calling key
         * @description Who is calling: the key’s store, scopes and expiry, the store’s features and limits, today’s quotas (Taipei day) and the rate limits. Read it once at start and branch on features and limits instead of on errors.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/media/images": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List images, newest first
         * @description The store’s images (deleted ones are gone), newest upload first, each exactly as its upload answered it, one page at a time: pass meta.next_cursor as cursor until it is null.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        get: operations["listImages"];
        put?: never;
        /**
         * Upload an image (multipart/form-data, field "file"); 201 new, 200 when the same content exists
         * @description Uploads one image as multipart/form-data in the field `file`. The format is decided by content (JPEG, PNG, GIF, WebP), metadata is stripped and large images are scaled down. 201 for a new image; 200 with the existing image when this store already has the same content (no quota used).
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        post: operations["uploadImage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/media/images/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an image
         * @description One image of the store, exactly as its upload answered it. An unknown, deleted or other store’s image answers 404 not_found.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        get: operations["getImage"];
        put?: never;
        post?: never;
        /**
         * Delete an image; its addresses stop working. Refused while a post uses it
         * @description Deletes an image; its path and url stop working at once. Refused with 409 image_in_use while a post (drafts included) uses it as cover or in its body; details lists those posts.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        delete: operations["deleteImage"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This description (OpenAPI 3.1), generated from the schemas that validate requests
         * @description This OpenAPI 3.1 document. It is generated from the same schemas that validate requests and shape answers, so it cannot drift from the service. /docs renders it. Every key may read it but one holding read_published alone (a key a public page may hold: 403 insufficient_scope); the same document is public at /docs/openapi.json.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * All webhook endpoints of the store at once, oldest first
         * @description Every webhook endpoint of the store (at most 10), oldest first, without secrets.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Create a webhook endpoint (at most 10 per store); the answer carries its signing secret, shown only here
         * @description Subscribes an https endpoint to event types. The answer carries the signing secret (Standard Webhooks), shown only here: store it to verify deliveries.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a webhook endpoint
         * @description One webhook endpoint, without its secret; disabled_reason says why the service disabled it, if it did.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint and its deliveries
         * @description Deletes the endpoint and its pending deliveries; nothing more is sent to it.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        /**
         * Change the url, events, description or enabled
         * @description Changes the fields sent. Setting enabled to true re-enables an endpoint the service disabled and clears disabled_reason.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        patch: operations["updateWebhookEndpoint"];
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Deliveries to this endpoint, newest first
         * @description Delivery attempts to this endpoint, newest first, one page at a time: status, attempts and the last answer’s status.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries/{delivery_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One delivery with every attempt: time, duration, answer or error
         * @description A delivery and its attempts, oldest first: when each started, how long it took, the answer’s status and first 1 KB, or why no answer arrived. An attempt being sent shows as in_progress; one cut short by a stopped process as interrupted.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        get: operations["getWebhookDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries/{delivery_id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery’s event again now, as a new delivery
         * @description For a delivery that succeeded or failed (a pending one is still being tried: 409 delivery_not_retryable), queues a new delivery of the same event to this endpoint, due now, with the same webhook-id and a fresh retry schedule; its retry_of names this delivery. The endpoint must be enabled.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        post: operations["retryWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send the events of a time range again (at most 10000)
         * @description Queues a new delivery, due now, of every event still in the events feed (GET /v1/events) recorded from since to until (default now) whose type the endpoint subscribes to and types names, e.g. after an outage longer than the retry window. At most 10000 events per replay (more: 422, split the range); receivers de-duplicate by webhook-id and order by the feed, not by arrival. The endpoint must be enabled.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        post: operations["replayWebhookEvents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A new signing secret; the old one keeps signing beside it for 24 hours
         * @description Issues a new signing secret, shown only in this answer. For 24 hours deliveries are signed with both secrets, so receivers can switch without missing an event.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a webhook.test event, or a sample of a content event, to this endpoint
         * @description Queues a webhook.test event (or, with `type`, a sample of that content event type whose data is the store's newest resource of that kind) for this endpoint only and answers its delivery; watch it in the deliveries list. Neither is in the events feed. A sample for a store with no resource of that kind answers 422.
         *
         *     Every authenticated answer also carries X-Request-Id and X-RateLimit-Limit/Remaining/Reset.
         */
        post: operations["sendTestWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "category.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * category.created
         * @description A category was created. Delivered at least once to each subscribed endpoint; answer 2xx within 10 seconds.
         */
        post: operations["categoryCreatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "category.deleted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * category.deleted
         * @description A category was deleted; data carries its id only. Each post that lost it sends a post.updated first. Delivered at least once to each subscribed endpoint; answer 2xx within 10 seconds.
         */
        post: operations["categoryDeletedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "category.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * category.updated
         * @description A category was renamed or moved (PATCH /v1/blog/categories/{id}). Delivered at least once to each subscribed endpoint; answer 2xx within 10 seconds.
         */
        post: operations["categoryUpdatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "image.deleted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * image.deleted
         * @description An image was deleted; its url no longer serves it. Delivered at least once to each subscribed endpoint; answer 2xx within 10 seconds.
         */
        post: operations["imageDeletedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "image.uploaded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * image.uploaded
         * @description An image was uploaded. Delivered at least once to each subscribed endpoint; answer 2xx within 10 seconds.
         */
        post: operations["imageUploadedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "post.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * post.created
         * @description A post was created (always a draft). Delivered at least once to each subscribed endpoint; answer 2xx within 10 seconds.
         */
        post: operations["postCreatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "post.deleted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * post.deleted
         * @description A draft was deleted; data carries its id only. Delivered at least once to each subscribed endpoint; answer 2xx within 10 seconds.
         */
        post: operations["postDeletedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "post.published": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * post.published
         * @description A post was published now or back-dated, or a scheduled post’s time arrived (within seconds of published_at, once). Delivered at least once to each subscribed endpoint; answer 2xx within 10 seconds.
         */
        post: operations["postPublishedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "post.scheduled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * post.scheduled
         * @description A post was given a future publish time. Delivered at least once to each subscribed endpoint; answer 2xx within 10 seconds.
         */
        post: operations["postScheduledEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "post.unpublished": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * post.unpublished
         * @description A published or scheduled post returned to draft. Delivered at least once to each subscribed endpoint; answer 2xx within 10 seconds.
         */
        post: operations["postUnpublishedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "post.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * post.updated
         * @description A post’s content, categories or cover changed. Delivered at least once to each subscribed endpoint; answer 2xx within 10 seconds.
         */
        post: operations["postUpdatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * webhook.test
         * @description Sent by POST /v1/webhooks/{id}/test to that endpoint only; data is the endpoint. Delivered at least once to each subscribed endpoint; answer 2xx within 10 seconds.
         */
        post: operations["webhookTestEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /**
         * AuditEvent
         * @example {
         *       "id": 5531,
         *       "occurred_at": "2026-09-14T10:05:00+08:00",
         *       "action": "post.updated",
         *       "resource_type": "post",
         *       "resource_id": "1042",
         *       "key_id": "k7m2q9x4",
         *       "application": "brewlab-cms",
         *       "request_id": "req_8Qm2T4w9Lx0Vb7Yc",
         *       "changes": [
         *         "body_html",
         *         "title"
         *       ]
         *     }
         */
        AuditEvent: {
            /** @description One of post.created, post.updated, post.published, post.scheduled, post.unpublished, post.deleted, category.created, category.updated, category.deleted, image.uploaded, image.deleted, webhook.created, webhook.updated, webhook.deleted, webhook.secret_rotated (more may come) */
            action: string;
            application: string | null;
            /** @description Names of the fields written */
            changes: string[];
            id: number;
            key_id: string | null;
            /**
             * Format: date-time
             * @example 2026-09-14T10:00:00+08:00
             */
            occurred_at: string;
            request_id: string | null;
            resource_id: string;
            /** @description post, category, image or webhook (more may come) */
            resource_type: string;
        };
        /**
         * AuditEventPage
         * @example {
         *       "data": [
         *         {
         *           "id": 5531,
         *           "occurred_at": "2026-09-14T10:05:00+08:00",
         *           "action": "post.updated",
         *           "resource_type": "post",
         *           "resource_id": "1042",
         *           "key_id": "k7m2q9x4",
         *           "application": "brewlab-cms",
         *           "request_id": "req_8Qm2T4w9Lx0Vb7Yc",
         *           "changes": [
         *             "body_html",
         *             "title"
         *           ]
         *         }
         *       ],
         *       "meta": {
         *         "next_cursor": null,
         *         "limit": 20
         *       }
         *     }
         */
        AuditEventPage: {
            data: components["schemas"]["AuditEvent"][];
            meta: {
                /** @description The page size used */
                limit: number;
                /** @description Pass as `cursor` for the next page; null on the last page */
                next_cursor: string | null;
            };
        };
        /**
         * Category
         * @example {
         *       "id": 3,
         *       "name": "Brewing guides",
         *       "parent_id": null,
         *       "depth": 1,
         *       "created_at": "2026-09-01T12:00:00+08:00",
         *       "updated_at": "2026-09-01T12:00:00+08:00"
         *     }
         */
        Category: {
            /**
             * Format: date-time
             * @example 2026-09-14T10:00:00+08:00
             */
            created_at: string;
            /** @description A root category has depth 1 */
            depth: number;
            id: number;
            name: string;
            parent_id: number | null;
            /**
             * Format: date-time
             * @example 2026-09-14T10:00:00+08:00
             */
            updated_at: string;
        };
        /**
         * CategoryList
         * @example {
         *       "data": [
         *         {
         *           "id": 3,
         *           "name": "Brewing guides",
         *           "parent_id": null,
         *           "depth": 1,
         *           "created_at": "2026-09-01T12:00:00+08:00",
         *           "updated_at": "2026-09-01T12:00:00+08:00"
         *         },
         *         {
         *           "id": 7,
         *           "name": "Pour-over",
         *           "parent_id": 3,
         *           "depth": 2,
         *           "created_at": "2026-09-01T12:00:00+08:00",
         *           "updated_at": "2026-09-01T12:00:00+08:00"
         *         }
         *       ]
         *     }
         */
        CategoryList: {
            data: components["schemas"]["Category"][];
        };
        /**
         * DeleteConfirmation
         * @description Omitted on the first call; sent with the token on the second
         * @example {
         *       "confirmation_token": "dc_7KfQ2mZp9xLw4RtY6vBn8cJd"
         *     }
         */
        DeleteConfirmation: {
            /** @description From the details of the first call’s 409 confirmation_required */
            confirmation_token: string;
        };
        /**
         * Delivery
         * @example {
         *       "id": "whd_9x2k4m7q1z8f",
         *       "event_id": "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W",
         *       "event_type": "post.published",
         *       "status": "succeeded",
         *       "attempts": 1,
         *       "last_attempt_at": "2026-09-14T10:00:01+08:00",
         *       "last_response_status": 204,
         *       "next_attempt_at": null,
         *       "waiting_reason": null,
         *       "created_at": "2026-09-14T10:00:00+08:00"
         *     }
         */
        Delivery: {
            attempts: number;
            /**
             * Format: date-time
             * @example 2026-09-14T10:00:00+08:00
             */
            created_at: string;
            /** @description The webhook-id header of every attempt */
            event_id: string;
            event_type: string;
            /** @description Starts with whd_ */
            id: string;
            /**
             * Format: date-time
             * @example 2026-09-14T10:00:00+08:00
             */
            last_attempt_at: string | null;
            /** @description null when no answer arrived (refused, timed out) */
            last_response_status: number | null;
            /**
             * Format: date-time
             * @description When a pending delivery is tried next; null otherwise (and while it is held: see waiting_reason)
             * @example 2026-09-14T10:00:00+08:00
             */
            next_attempt_at: string | null;
            /** @enum {string} */
            status: "pending" | "succeeded" | "failed";
            /**
             * @description Why a pending delivery is not being sent: held because the store already has 1000 deliveries queued (sent as the queue drains), or the endpoint’s circuit is open (see circuit_open_until); null otherwise
             * @enum {string|null}
             */
            waiting_reason: "store_queue_full" | "circuit_open" | null;
        };
        /**
         * DeliveryAttempt
         * @example {
         *       "id": "wha_4f8k2m9q1z7x3c5v6b8n0p2r",
         *       "started_at": "2026-09-14T10:00:01+08:00",
         *       "state": "failed",
         *       "duration_ms": 10003,
         *       "response_status": null,
         *       "error": "no complete answer within 10000 ms",
         *       "response_body": null
         *     }
         */
        DeliveryAttempt: {
            /** @description null while in progress or interrupted */
            duration_ms: number | null;
            /** @description Why no answer arrived (refused, timed out, …); null otherwise */
            error: string | null;
            /** @description Starts with wha_ */
            id: string;
            /** @description The first 1 KB of the answer’s body */
            response_body: string | null;
            /** @description null when no answer arrived */
            response_status: number | null;
            /**
             * Format: date-time
             * @example 2026-09-14T10:00:00+08:00
             */
            started_at: string;
            /**
             * @description in_progress: being sent now; interrupted: the sending process stopped before an answer (the delivery is tried again)
             * @enum {string}
             */
            state: "in_progress" | "succeeded" | "failed" | "interrupted";
        };
        /**
         * DeliveryDetail
         * @example {
         *       "id": "whd_9x2k4m7q1z8f",
         *       "event_id": "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W",
         *       "event_type": "post.published",
         *       "status": "succeeded",
         *       "attempts": 1,
         *       "last_attempt_at": "2026-09-14T10:00:01+08:00",
         *       "last_response_status": 204,
         *       "next_attempt_at": null,
         *       "waiting_reason": null,
         *       "created_at": "2026-09-14T10:00:00+08:00",
         *       "retry_of": null,
         *       "attempt_history": [
         *         {
         *           "id": "wha_4f8k2m9q1z7x3c5v6b8n0p2r",
         *           "started_at": "2026-09-14T10:00:01+08:00",
         *           "state": "succeeded",
         *           "duration_ms": 84,
         *           "response_status": 204,
         *           "error": null,
         *           "response_body": ""
         *         }
         *       ]
         *     }
         */
        DeliveryDetail: {
            /** @description Every attempt, oldest first */
            attempt_history: components["schemas"]["DeliveryAttempt"][];
            attempts: number;
            /**
             * Format: date-time
             * @example 2026-09-14T10:00:00+08:00
             */
            created_at: string;
            /** @description The webhook-id header of every attempt */
            event_id: string;
            event_type: string;
            /** @description Starts with whd_ */
            id: string;
            /**
             * Format: date-time
             * @example 2026-09-14T10:00:00+08:00
             */
            last_attempt_at: string | null;
            /** @description null when no answer arrived (refused, timed out) */
            last_response_status: number | null;
            /**
             * Format: date-time
             * @description When a pending delivery is tried next; null otherwise (and while it is held: see waiting_reason)
             * @example 2026-09-14T10:00:00+08:00
             */
            next_attempt_at: string | null;
            /** @description The delivery this one retries; null otherwise */
            retry_of: string | null;
            /** @enum {string} */
            status: "pending" | "succeeded" | "failed";
            /**
             * @description Why a pending delivery is not being sent: held because the store already has 1000 deliveries queued (sent as the queue drains), or the endpoint’s circuit is open (see circuit_open_until); null otherwise
             * @enum {string|null}
             */
            waiting_reason: "store_queue_full" | "circuit_open" | null;
        };
        /**
         * DeliveryPage
         * @example {
         *       "data": [
         *         {
         *           "id": "whd_9x2k4m7q1z8f",
         *           "event_id": "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W",
         *           "event_type": "post.published",
         *           "status": "succeeded",
         *           "attempts": 1,
         *           "last_attempt_at": "2026-09-14T10:00:01+08:00",
         *           "last_response_status": 204,
         *           "next_attempt_at": null,
         *           "waiting_reason": null,
         *           "created_at": "2026-09-14T10:00:00+08:00"
         *         }
         *       ],
         *       "meta": {
         *         "next_cursor": null,
         *         "limit": 20
         *       }
         *     }
         */
        DeliveryPage: {
            data: components["schemas"]["Delivery"][];
            meta: {
                /** @description The page size used */
                limit: number;
                /** @description Pass as `cursor` for the next page; null on the last page */
                next_cursor: string | null;
            };
        };
        /**
         * ErrorEnvelope
         * @example {
         *       "error": {
         *         "code": "validation_failed",
         *         "message": "請求欄位驗證失敗。請依 details 逐一修正欄位後再送出。",
         *         "details": [
         *           {
         *             "field": "title",
         *             "issue": "must be 1 to 200 characters after trimming"
         *           }
         *         ],
         *         "request_id": "req_8Qm2T4w9Lx0Vb7Yc",
         *         "retryable": false
         *       }
         *     }
         */
        ErrorEnvelope: {
            error: {
                /**
                 * @description Error code; clients branch on it. New codes may be added: handle an unknown one by its status and `retryable`.
                 * @enum {string}
                 */
                code: "unauthorized" | "insufficient_scope" | "not_found" | "feature_unavailable" | "validation_failed" | "title_charset_unsupported" | "cover_image_not_owned" | "content_too_large" | "image_too_large" | "unsupported_media_type" | "idempotency_key_reused" | "idempotency_in_progress" | "duplicate_content" | "confirmation_required" | "post_is_published" | "post_has_product_links" | "precondition_failed" | "category_name_conflict" | "category_has_children" | "image_in_use" | "rate_limited" | "concurrency_limited" | "quota_exceeded" | "tenant_not_certified" | "tenant_schema_changed" | "delivery_not_retryable" | "cursor_expired" | "service_unavailable" | "internal_error";
                /** @description Field-level problems and data for the next step; `field` may name a body field, a query parameter or a header. At most 100 entries, and no more than 12,000 bytes of them as JSON: every error answer is under 16 KB. */
                details: {
                    /** @description The field, query parameter or header at fault; one longer than 200 characters ends in `…` */
                    field: string;
                    /** @description What is wrong with it; one longer than 200 characters ends in `…` */
                    issue: string;
                }[];
                /**
                 * @description Present (true) only when more problems were found than details lists (at most 100, and at most 12,000 bytes of them)
                 * @enum {boolean}
                 */
                details_truncated?: true;
                /** @description Explanation with a next step, in Traditional Chinese, or in English when Accept-Language asks for it (Content-Language names which); wording may change. */
                message: string;
                /** @description Also in the X-Request-Id header; quote it to the operators */
                request_id: string;
                /** @description Whether the same request may succeed later (after Retry-After when sent) */
                retryable: boolean;
            };
        };
        /**
         * Event
         * @example {
         *       "id": "msg_2kwpbgllafxdpx2ai54ppj85",
         *       "sequence": 1042,
         *       "type": "post.deleted",
         *       "timestamp": "2026-09-14T10:00:00+08:00",
         *       "handle": "brewlab",
         *       "data": {
         *         "id": 1234
         *       }
         *     }
         */
        Event: {
            /** @description As in the webhook delivery: the resource as written; `{ id }` for a deletion */
            data: unknown;
            /** @description The store’s handle */
            handle: string;
            /** @description Starts with msg_; the webhook-id header of every delivery of this event */
            id: string;
            /** @description The event’s place in the store’s feed: only increases, in commit order */
            sequence: number;
            /** @description When the change was made, in the store’s time zone (whole seconds) */
            timestamp: string;
            /** @description One of post.created, post.updated, post.published, post.scheduled, post.unpublished, post.deleted, category.created, category.updated, category.deleted, image.uploaded, image.deleted (more may come) */
            type: string;
        };
        /**
         * EventPage
         * @example {
         *       "data": [
         *         {
         *           "id": "msg_2kwpbgllafxdpx2ai54ppj85",
         *           "sequence": 1042,
         *           "type": "post.deleted",
         *           "timestamp": "2026-09-14T10:00:00+08:00",
         *           "handle": "brewlab",
         *           "data": {
         *             "id": 1234
         *           }
         *         }
         *       ],
         *       "meta": {
         *         "next_cursor": "1042",
         *         "has_more": false,
         *         "limit": 100
         *       }
         *     }
         */
        EventPage: {
            data: components["schemas"]["Event"][];
            meta: {
                /** @description true: more events are already there; false: the feed is caught up, poll later with next_cursor */
                has_more: boolean;
                /** @description The page size used */
                limit: number;
                /** @description Always present, also on an empty page: pass it as `after` to continue (or to poll) from here */
                next_cursor: string;
            };
        };
        /**
         * Identity
         * @description The calling key and its store: what it may do and how much
         * @example {
         *       "api_version": "2026-09-14",
         *       "key_id": "k7m2q9x4",
         *       "application": "brewlab-cms",
         *       "store": {
         *         "handle": "brewlab",
         *         "name": "Brew Lab 咖啡實驗室"
         *       },
         *       "scopes": [
         *         "read_blog",
         *         "write_blog",
         *         "publish_blog",
         *         "write_media"
         *       ],
         *       "key_expires_at": "2027-09-14T00:00:00+08:00",
         *       "features": {
         *         "blog_categories": true,
         *         "media_upload": true,
         *         "webhooks": true
         *       },
         *       "limits": {
         *         "title_allows_emoji": false,
         *         "title_max_length": 200,
         *         "body_max_bytes": 524288,
         *         "image_formats": [
         *           "jpeg",
         *           "png",
         *           "gif",
         *           "webp"
         *         ],
         *         "image_max_bytes": 10485760,
         *         "image_max_pixels": 40000000,
         *         "image_max_gif_frames": 300,
         *         "image_max_total_pixels": 400000000,
         *         "image_max_width": 2560,
         *         "category_max_depth": 3
         *       },
         *       "quotas": {
         *         "posts_per_day": {
         *           "limit": 100,
         *           "used": 12,
         *           "remaining": 88,
         *           "resets_at": "2026-09-15T00:00:00+08:00"
         *         },
         *         "images_per_day": {
         *           "limit": 500,
         *           "used": 40,
         *           "remaining": 460,
         *           "resets_at": "2026-09-15T00:00:00+08:00"
         *         }
         *       },
         *       "rate_limits": {
         *         "read_per_minute": 600,
         *         "write_per_minute": 120,
         *         "concurrency": 10
         *       }
         *     }
         */
        Identity: {
            api_version: string;
            application: string;
            features: {
                blog_categories: boolean;
                media_upload: boolean;
                webhooks: boolean;
            };
            /**
             * Format: date-time
             * @description null: the key does not expire
             * @example 2026-09-14T10:00:00+08:00
             */
            key_expires_at: string | null;
            key_id: string;
            limits: {
                body_max_bytes: number;
                category_max_depth: number;
                image_formats: string[];
                image_max_bytes: number;
                image_max_gif_frames: number;
                image_max_pixels: number;
                image_max_total_pixels: number;
                image_max_width: number;
                title_allows_emoji: boolean;
                title_max_length: number;
            };
            quotas: {
                images_per_day: {
                    limit: number;
                    remaining: number;
                    /**
                     * Format: date-time
                     * @description Next Taipei midnight, with +08:00
                     * @example 2026-09-14T10:00:00+08:00
                     */
                    resets_at: string;
                    used: number;
                };
                posts_per_day: {
                    limit: number;
                    remaining: number;
                    /**
                     * Format: date-time
                     * @description Next Taipei midnight, with +08:00
                     * @example 2026-09-14T10:00:00+08:00
                     */
                    resets_at: string;
                    used: number;
                };
            };
            rate_limits: {
                concurrency: number;
                read_per_minute: number;
                write_per_minute: number;
            };
            scopes: string[];
            store: {
                handle: string;
                name: string;
            };
        };
        /**
         * Image
         * @description The live image this store already has with the same content
         * @example {
         *       "id": "img_3k9x0c1m2n4b5v6c7x8z9l0k",
         *       "basename": "k3v9x0c1m2n4b5v6c7x8z9l0.jpg",
         *       "path": "/media/brewlab/k3v9x0c1m2n4b5v6c7x8z9l0.jpg",
         *       "url": "https://blog.example.com/media/brewlab/k3v9x0c1m2n4b5v6c7x8z9l0.jpg",
         *       "content_type": "image/jpeg",
         *       "width": 1600,
         *       "height": 1067,
         *       "bytes": 248311
         *     }
         */
        Image: {
            /** @description File name generated by the server; the extension follows the real content */
            basename: string;
            /** @description Output size in bytes */
            bytes: number;
            /**
             * @description Actual content type
             * @enum {string}
             */
            content_type: "image/jpeg" | "image/png" | "image/gif" | "image/webp";
            /** @description Output height in pixels (one frame for animations) */
            height: number;
            /**
             * @description Starts with img_
             * @example img_3k9x0c1m2n4b5v6c7x8z9l0k
             */
            id: string;
            /** @description Path within the site, e.g. /media/<store>/<basename> */
            path: string;
            /** @description Full address; use it unchanged as a post’s cover_image_url */
            url: string;
            /** @description Output width in pixels */
            width: number;
        };
        /**
         * ImagePage
         * @description The store’s images, newest first
         * @example {
         *       "data": [
         *         {
         *           "id": "img_3k9x0c1m2n4b5v6c7x8z9l0k",
         *           "basename": "k3v9x0c1m2n4b5v6c7x8z9l0.jpg",
         *           "path": "/media/brewlab/k3v9x0c1m2n4b5v6c7x8z9l0.jpg",
         *           "url": "https://blog.example.com/media/brewlab/k3v9x0c1m2n4b5v6c7x8z9l0.jpg",
         *           "content_type": "image/jpeg",
         *           "width": 1600,
         *           "height": 1067,
         *           "bytes": 248311
         *         }
         *       ],
         *       "meta": {
         *         "next_cursor": "eyJoIjoiOWQ0YjE...",
         *         "limit": 20
         *       }
         *     }
         */
        ImagePage: {
            data: components["schemas"]["Image"][];
            meta: {
                /** @description The page size used */
                limit: number;
                /** @description Pass as `cursor` for the next page; null on the last page */
                next_cursor: string | null;
            };
        };
        /**
         * NewCategory
         * @example {
         *       "name": "Pour-over",
         *       "parent_id": 3
         *     }
         */
        NewCategory: {
            /** @description Trimmed; 1–100 characters */
            name: string;
            parent_id?: number | null;
        };
        /**
         * NewPost
         * @example {
         *       "title": "秋季新品：手沖咖啡入門指南",
         *       "body_html": "<h2>Grind</h2><p>Medium-fine, like table salt. <strong>Weigh</strong> 15 g for 250 ml.</p>",
         *       "summary": "Three beans and one kettle: how we brew the autumn range in the shop.",
         *       "category_ids": [
         *         3,
         *         7
         *       ],
         *       "default_category_id": 3,
         *       "cover_image_url": "https://blog.example.com/media/brewlab/k3v9x0c1m2n4b5v6c7x8z9l0.jpg"
         *     }
         */
        NewPost: {
            /** @description Filtered by an allow-list; removed items are listed in warnings */
            body_html: string;
            /** @description All categories of the post: positive, unique */
            category_ids?: number[] | null;
            /** @description The url of an image uploaded by this store */
            cover_image_url?: string | null;
            /** @description Must be one of category_ids */
            default_category_id?: number | null;
            summary?: string | null;
            /** @description Trimmed; 1..limits.title_max_length characters */
            title: string;
        };
        /**
         * NewWebhookEndpoint
         * @example {
         *       "url": "https://hooks.brewlab.example.com/blog",
         *       "events": [
         *         "post.published",
         *         "post.unpublished"
         *       ],
         *       "description": "Rebuild the shop’s static pages"
         *     }
         */
        NewWebhookEndpoint: {
            description?: string | null;
            /** @description Event types (post.created, post.updated, post.published, post.scheduled, post.unpublished, post.deleted, category.created, category.updated, category.deleted, image.uploaded, image.deleted, webhook.test), or ["*"] for all, including types added later */
            events: string[];
            /** @description https; the host must resolve to public addresses */
            url: string;
        };
        /**
         * Post
         * @example {
         *       "id": 1042,
         *       "title": "秋季新品：手沖咖啡入門指南",
         *       "summary": "Three beans and one kettle: how we brew the autumn range in the shop.",
         *       "cover_image": {
         *         "path": "/media/brewlab/k3v9x0c1m2n4b5v6c7x8z9l0.jpg",
         *         "url": "https://blog.example.com/media/brewlab/k3v9x0c1m2n4b5v6c7x8z9l0.jpg"
         *       },
         *       "status": "published",
         *       "published_at": "2026-09-14T10:00:00+08:00",
         *       "category_ids": [
         *         3,
         *         7
         *       ],
         *       "default_category_id": 3,
         *       "view_count": 128,
         *       "public_url": "https://brewlab.example.com/blog/posts/1042",
         *       "created_at": "2026-09-14T09:30:00+08:00",
         *       "updated_at": "2026-09-14T10:05:00+08:00",
         *       "body_html": "<h2>Grind</h2><p>Medium-fine, like table salt. <strong>Weigh</strong> 15 g for 250 ml.</p><ul><li>92 °C water</li><li>Bloom 30 s</li></ul>",
         *       "warnings": []
         *     }
         */
        Post: {
            /** @description As stored, after the allow-list filter */
            body_html: string;
            category_ids: number[];
            /** @description null when the post has no cover */
            cover_image: {
                /** @description Path within the site */
                path: string;
                /** @description Full address of the image */
                url: string;
            } | null;
            /**
             * Format: date-time
             * @example 2026-09-14T10:00:00+08:00
             */
            created_at: string;
            default_category_id: number | null;
            id: number;
            /** @description The post’s store-front page while published; null otherwise */
            public_url: string | null;
            /**
             * Format: date-time
             * @description When the post is (or was) published, with the store’s offset; null for a draft
             * @example 2026-09-14T10:00:00+08:00
             */
            published_at: string | null;
            /**
             * @description Derived from the publish time; new values may be added
             * @enum {string}
             */
            status: "draft" | "scheduled" | "published";
            summary: string | null;
            title: string;
            /**
             * Format: date-time
             * @example 2026-09-14T10:00:00+08:00
             */
            updated_at: string;
            /** @description Store-front views; not part of the ETag */
            view_count: number;
            /** @description What the filter removed from the body sent */
            warnings: string[];
        };
        /**
         * PostChanges
         * @example {
         *       "title": "秋季新品：手沖咖啡入門指南（更新版）",
         *       "summary": "Now with a cold-brew section."
         *     }
         */
        PostChanges: {
            /** @description Filtered by an allow-list; removed items are listed in warnings */
            body_html?: string;
            /** @description All categories of the post: positive, unique */
            category_ids?: number[] | null;
            /** @description The url of an image uploaded by this store */
            cover_image_url?: string;
            /** @description Must be one of category_ids */
            default_category_id?: number | null;
            summary?: string | null;
            /** @description Trimmed; 1..limits.title_max_length characters */
            title?: string;
        };
        /**
         * PostListItem
         * @description A post as listed: every field but body_html and warnings
         * @example {
         *       "id": 1042,
         *       "title": "秋季新品：手沖咖啡入門指南",
         *       "summary": "Three beans and one kettle: how we brew the autumn range in the shop.",
         *       "cover_image": {
         *         "path": "/media/brewlab/k3v9x0c1m2n4b5v6c7x8z9l0.jpg",
         *         "url": "https://blog.example.com/media/brewlab/k3v9x0c1m2n4b5v6c7x8z9l0.jpg"
         *       },
         *       "status": "published",
         *       "published_at": "2026-09-14T10:00:00+08:00",
         *       "category_ids": [
         *         3,
         *         7
         *       ],
         *       "default_category_id": 3,
         *       "view_count": 128,
         *       "public_url": "https://brewlab.example.com/blog/posts/1042",
         *       "created_at": "2026-09-14T09:30:00+08:00",
         *       "updated_at": "2026-09-14T10:05:00+08:00"
         *     }
         */
        PostListItem: {
            category_ids: number[];
            /** @description null when the post has no cover */
            cover_image: {
                /** @description Path within the site */
                path: string;
                /** @description Full address of the image */
                url: string;
            } | null;
            /**
             * Format: date-time
             * @example 2026-09-14T10:00:00+08:00
             */
            created_at: string;
            default_category_id: number | null;
            id: number;
            /** @description The post’s store-front page while published; null otherwise */
            public_url: string | null;
            /**
             * Format: date-time
             * @description When the post is (or was) published, with the store’s offset; null for a draft
             * @example 2026-09-14T10:00:00+08:00
             */
            published_at: string | null;
            /**
             * @description Derived from the publish time; new values may be added
             * @enum {string}
             */
            status: "draft" | "scheduled" | "published";
            summary: string | null;
            title: string;
            /**
             * Format: date-time
             * @example 2026-09-14T10:00:00+08:00
             */
            updated_at: string;
            /** @description Store-front views; not part of the ETag */
            view_count: number;
        };
        /**
         * PostPage
         * @example {
         *       "data": [
         *         {
         *           "id": 1042,
         *           "title": "秋季新品：手沖咖啡入門指南",
         *           "summary": "Three beans and one kettle: how we brew the autumn range in the shop.",
         *           "cover_image": {
         *             "path": "/media/brewlab/k3v9x0c1m2n4b5v6c7x8z9l0.jpg",
         *             "url": "https://blog.example.com/media/brewlab/k3v9x0c1m2n4b5v6c7x8z9l0.jpg"
         *           },
         *           "status": "published",
         *           "published_at": "2026-09-14T10:00:00+08:00",
         *           "category_ids": [
         *             3,
         *             7
         *           ],
         *           "default_category_id": 3,
         *           "view_count": 128,
         *           "public_url": "https://brewlab.example.com/blog/posts/1042",
         *           "created_at": "2026-09-14T09:30:00+08:00",
         *           "updated_at": "2026-09-14T10:05:00+08:00"
         *         }
         *       ],
         *       "meta": {
         *         "next_cursor": "eyJwIjpbMTc1Nzc...",
         *         "limit": 20
         *       }
         *     }
         */
        PostPage: {
            data: components["schemas"]["PostListItem"][];
            meta: {
                /** @description The page size used */
                limit: number;
                /** @description Pass as `cursor` for the next page; null on the last page */
                next_cursor: string | null;
            };
        };
        /**
         * PublishRequest
         * @description Optional: without a body (or with published_at null) the post is published now
         * @example {
         *       "published_at": "2026-09-20T09:00:00+08:00"
         *     }
         */
        PublishRequest: {
            /**
             * Format: date-time
             * @description Omitted, null or past: publish now (or back-dated); future: schedule
             * @example 2026-09-14T10:00:00+08:00
             */
            published_at?: string | null;
        };
        /**
         * TestWebhookRequest
         * @description Optional: without a body a webhook.test event is sent
         * @example {
         *       "type": "post.published"
         *     }
         */
        TestWebhookRequest: {
            /**
             * @description The event type to send: `webhook.test` (the default) or a sample of a content event type, whose data is the store's newest resource of that kind as it is now (for a deletion, its id). Samples are not in the events feed.
             * @enum {string}
             */
            type?: "post.created" | "post.updated" | "post.published" | "post.scheduled" | "post.unpublished" | "post.deleted" | "category.created" | "category.updated" | "category.deleted" | "image.uploaded" | "image.deleted" | "webhook.test";
        };
        /**
         * WebhookEndpoint
         * @example {
         *       "id": "wh_4f8k2m9x7q1z",
         *       "url": "https://hooks.brewlab.example.com/blog",
         *       "events": [
         *         "post.published",
         *         "post.unpublished"
         *       ],
         *       "description": "Rebuild the shop’s static pages",
         *       "enabled": true,
         *       "disabled_reason": null,
         *       "circuit_open_until": null,
         *       "created_at": "2026-09-10T08:00:00+08:00",
         *       "updated_at": "2026-09-10T08:00:00+08:00"
         *     }
         */
        WebhookEndpoint: {
            /**
             * Format: date-time
             * @description Circuit breaker: after 3 attempts in a row with no answer within 10 s, no delivery is sent to the endpoint until this time; the next attempt then is a trial. null while closed
             * @example 2026-09-14T10:00:00+08:00
             */
            circuit_open_until: string | null;
            /**
             * Format: date-time
             * @example 2026-09-14T10:00:00+08:00
             */
            created_at: string;
            description: string | null;
            /** @description Why the service disabled the endpoint; null otherwise */
            disabled_reason: string | null;
            enabled: boolean;
            events: string[];
            /** @description Starts with wh_ */
            id: string;
            /**
             * Format: date-time
             * @example 2026-09-14T10:00:00+08:00
             */
            updated_at: string;
            url: string;
        };
        /**
         * WebhookEndpointChanges
         * @example {
         *       "enabled": true
         *     }
         */
        WebhookEndpointChanges: {
            description?: string | null;
            /** @description true also clears disabled_reason */
            enabled?: boolean;
            /** @description Event types (post.created, post.updated, post.published, post.scheduled, post.unpublished, post.deleted, category.created, category.updated, category.deleted, image.uploaded, image.deleted, webhook.test), or ["*"] for all, including types added later */
            events?: string[];
            /** @description https; the host must resolve to public addresses */
            url?: string;
        };
        /**
         * WebhookEndpointList
         * @example {
         *       "data": [
         *         {
         *           "id": "wh_4f8k2m9x7q1z",
         *           "url": "https://hooks.brewlab.example.com/blog",
         *           "events": [
         *             "post.published",
         *             "post.unpublished"
         *           ],
         *           "description": "Rebuild the shop’s static pages",
         *           "enabled": true,
         *           "disabled_reason": null,
         *           "circuit_open_until": null,
         *           "created_at": "2026-09-10T08:00:00+08:00",
         *           "updated_at": "2026-09-10T08:00:00+08:00"
         *         }
         *       ]
         *     }
         */
        WebhookEndpointList: {
            data: components["schemas"]["WebhookEndpoint"][];
        };
        /**
         * WebhookEndpointWithSecret
         * @example {
         *       "id": "wh_4f8k2m9x7q1z",
         *       "url": "https://hooks.brewlab.example.com/blog",
         *       "events": [
         *         "post.published",
         *         "post.unpublished"
         *       ],
         *       "description": "Rebuild the shop’s static pages",
         *       "enabled": true,
         *       "disabled_reason": null,
         *       "circuit_open_until": null,
         *       "created_at": "2026-09-10T08:00:00+08:00",
         *       "updated_at": "2026-09-10T08:00:00+08:00",
         *       "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
         *     }
         */
        WebhookEndpointWithSecret: {
            /**
             * Format: date-time
             * @description Circuit breaker: after 3 attempts in a row with no answer within 10 s, no delivery is sent to the endpoint until this time; the next attempt then is a trial. null while closed
             * @example 2026-09-14T10:00:00+08:00
             */
            circuit_open_until: string | null;
            /**
             * Format: date-time
             * @example 2026-09-14T10:00:00+08:00
             */
            created_at: string;
            description: string | null;
            /** @description Why the service disabled the endpoint; null otherwise */
            disabled_reason: string | null;
            enabled: boolean;
            events: string[];
            /** @description Starts with wh_ */
            id: string;
            /** @description whsec_ + base64 (Standard Webhooks). Shown in this response only: keep it now */
            secret: string;
            /**
             * Format: date-time
             * @example 2026-09-14T10:00:00+08:00
             */
            updated_at: string;
            url: string;
        };
        /**
         * WebhookReplay
         * @example {
         *       "since": "2026-09-10T00:00:00+08:00",
         *       "until": "2026-09-14T00:00:00+08:00",
         *       "types": [
         *         "post.*"
         *       ]
         *     }
         */
        WebhookReplay: {
            /**
             * Format: date-time
             * @description Events recorded at or after this time
             * @example 2026-09-14T10:00:00+08:00
             */
            since: string;
            /** @description Event types or prefixes (`post.*`); default: every type. Only types the endpoint subscribes to are sent. */
            types?: string[];
            /**
             * Format: date-time
             * @description Events recorded before this time; default: now
             * @example 2026-09-14T10:00:00+08:00
             */
            until?: string;
        };
        /**
         * WebhookReplayResult
         * @example {
         *       "queued": 318,
         *       "first_sequence": 724,
         *       "last_sequence": 1041
         *     }
         */
        WebhookReplayResult: {
            /** @description The feed sequence of the first event queued */
            first_sequence: number | null;
            /** @description The feed sequence of the last event queued */
            last_sequence: number | null;
            /** @description Deliveries queued, one per matching event */
            queued: number;
        };
    };
    responses: never;
    parameters: {
        /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
        AcceptLanguage: string;
    };
    requestBodies: never;
    headers: {
        /** @description The language of error.message: `zh-TW` or `en`, as Accept-Language chose */
        ContentLanguage: "zh-TW" | "en";
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listAuditEvents: {
        parameters: {
            query?: {
                action?: string;
                /** @description The previous page’s meta.next_cursor, unchanged. */
                cursor?: string;
                key_id?: string;
                limit?: number;
                resource_id?: string;
                resource_type?: string;
                /**
                 * @description Events at or after this time
                 * @example 2026-09-14T10:00:00+08:00
                 */
                since?: string;
                /**
                 * @description Events before this time
                 * @example 2026-09-14T10:00:00+08:00
                 */
                until?: string;
            };
            header?: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditEventPage"];
                };
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: validation_failed */
            422: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable, tenant_not_certified, tenant_schema_changed */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listCategories: {
        parameters: {
            query?: never;
            header?: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CategoryList"];
                };
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: feature_unavailable */
            404: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: validation_failed */
            422: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable, tenant_not_certified, tenant_schema_changed */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createCategory: {
        parameters: {
            query?: never;
            header: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
                /** @description Required: 1–255 printable ASCII characters identifying this creation */
                "idempotency-key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewCategory"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Category"];
                };
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: feature_unavailable */
            404: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: category_name_conflict, idempotency_key_reused, idempotency_in_progress */
            409: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: validation_failed */
            422: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable, tenant_not_certified, tenant_schema_changed */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteCategory: {
        parameters: {
            query?: never;
            header?: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: feature_unavailable, not_found */
            404: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: category_has_children */
            409: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: validation_failed */
            422: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable, tenant_not_certified, tenant_schema_changed */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateCategory: {
        parameters: {
            query?: never;
            header?: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Trimmed; 1–100 characters; unique under the (new) parent */
                    name?: string;
                    /** @description Move under this category (null: to the root). Not under itself or a descendant; the deepest category of the moved subtree must stay within limits.category_max_depth */
                    parent_id?: number | null;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Category"];
                };
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: feature_unavailable, not_found */
            404: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: category_name_conflict */
            409: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: validation_failed */
            422: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable, tenant_not_certified, tenant_schema_changed */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listPosts: {
        parameters: {
            query?: {
                /** @description Only when categories are enabled */
                category_id?: number;
                /** @description The previous page’s meta.next_cursor, unchanged. */
                cursor?: string;
                direction?: "desc" | "asc";
                limit?: number;
                /** @description published_at: drafts come last in both directions */
                order_by?: "created_at" | "published_at" | "updated_at";
                /** @description Free text: posts whose title, summary or body text (without markup) contains every white-space separated term, case-insensitively. Chinese needs no spaces: a term of 2 or more characters matches where that string occurs. A filter: the order stays that of order_by. */
                q?: string;
                status?: "draft" | "scheduled" | "published";
                /**
                 * @description Only posts updated at or after this time. With order_by=updated_at and direction=asc this is the sync feed: paging never skips or repeats a post that did not change during the walk.
                 * @example 2026-09-14T10:00:00+08:00
                 */
                updated_since?: string;
            };
            header?: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PostPage"];
                };
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: feature_unavailable */
            404: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: validation_failed */
            422: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable, tenant_not_certified, tenant_schema_changed */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createPost: {
        parameters: {
            query?: never;
            header: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
                /** @description Required: 1–255 printable ASCII characters identifying this creation */
                "idempotency-key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewPost"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    /** @description The post’s ETag: send it as If-Match to write only if nobody changed the post since, or as If-None-Match to re-read it cheaply */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Post"];
                };
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: duplicate_content, idempotency_key_reused, idempotency_in_progress */
            409: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: content_too_large */
            413: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: validation_failed, title_charset_unsupported, cover_image_not_owned */
            422: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited, quota_exceeded */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable, tenant_not_certified, tenant_schema_changed */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getPost: {
        parameters: {
            query?: never;
            header?: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
                /** @description The ETag of the copy you hold: 304 with no body while the post is unchanged */
                "if-none-match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The post’s ETag: send it as If-Match to write only if nobody changed the post since, or as If-None-Match to re-read it cheaply */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Post"];
                };
            };
            /** @description Not modified: the If-None-Match ETag is still the post’s; no body */
            304: {
                headers: {
                    /** @description The post’s ETag: send it as If-Match to write only if nobody changed the post since, or as If-None-Match to re-read it cheaply */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: not_found */
            404: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: validation_failed */
            422: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable, tenant_not_certified, tenant_schema_changed */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deletePost: {
        parameters: {
            query?: never;
            header?: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
                /** @description The post’s ETag as last read: the call is refused with 412 precondition_failed, writing nothing, if the post changed since */
                "if-match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        /** @description Omitted on the first call; sent with the token on the second */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["DeleteConfirmation"];
            };
        };
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: not_found */
            404: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: confirmation_required, post_is_published, post_has_product_links */
            409: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: precondition_failed */
            412: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: validation_failed */
            422: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable, tenant_not_certified, tenant_schema_changed */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updatePost: {
        parameters: {
            query?: never;
            header?: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
                /** @description The post’s ETag as last read: the call is refused with 412 precondition_failed, writing nothing, if the post changed since */
                "if-match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PostChanges"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The post’s ETag: send it as If-Match to write only if nobody changed the post since, or as If-None-Match to re-read it cheaply */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Post"];
                };
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: not_found */
            404: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: duplicate_content */
            409: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: precondition_failed */
            412: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: content_too_large */
            413: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: validation_failed, title_charset_unsupported, cover_image_not_owned */
            422: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable, tenant_not_certified, tenant_schema_changed */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createPreviewLink: {
        parameters: {
            query?: never;
            header?: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        /** @description Optional body */
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * @description How long the link works: 60 seconds to 7 days (default 1 day)
                     * @default 86400
                     */
                    expires_in_seconds?: number;
                };
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description In the store’s UTC offset, to the second */
                        expires_at: string;
                        /** @description Opens the post as the store front renders it, with its current content, whatever its status: marked noindex (meta tag and X-Robots-Tag), with a visible preview banner, not counted in view_count. Unguessable (signed); 404 after expires_at or once the post is deleted. Share it only with the people meant to see the draft. */
                        url: string;
                    };
                };
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: not_found */
            404: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: validation_failed */
            422: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable, tenant_not_certified, tenant_schema_changed */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    publishPost: {
        parameters: {
            query?: never;
            header?: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
                /** @description The post’s ETag as last read: the call is refused with 412 precondition_failed, writing nothing, if the post changed since */
                "if-match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        /** @description Optional: without a body (or with published_at null) the post is published now */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["PublishRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The post’s ETag: send it as If-Match to write only if nobody changed the post since, or as If-None-Match to re-read it cheaply */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Post"];
                };
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: not_found */
            404: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: precondition_failed */
            412: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: validation_failed */
            422: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable, tenant_not_certified, tenant_schema_changed */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    unpublishPost: {
        parameters: {
            query?: never;
            header?: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
                /** @description The post’s ETag as last read: the call is refused with 412 precondition_failed, writing nothing, if the post changed since */
                "if-match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The post’s ETag: send it as If-Match to write only if nobody changed the post since, or as If-None-Match to re-read it cheaply */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Post"];
                };
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: not_found */
            404: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: precondition_failed */
            412: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: validation_failed */
            422: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable, tenant_not_certified, tenant_schema_changed */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listPublishedCategories: {
        parameters: {
            query?: never;
            header?: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CategoryList"];
                };
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: feature_unavailable */
            404: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: validation_failed */
            422: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable, tenant_not_certified, tenant_schema_changed */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listPublishedPosts: {
        parameters: {
            query?: {
                /** @description Only when categories are enabled */
                category_id?: number;
                /** @description The previous page’s meta.next_cursor, unchanged. */
                cursor?: string;
                limit?: number;
                /** @description Free text: posts whose title, summary or body text (without markup) contains every white-space separated term, case-insensitively. Chinese needs no spaces: a term of 2 or more characters matches where that string occurs. A filter: the order stays that of order_by. */
                q?: string;
            };
            header?: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PostPage"];
                };
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: feature_unavailable */
            404: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: validation_failed */
            422: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable, tenant_not_certified, tenant_schema_changed */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getPublishedPost: {
        parameters: {
            query?: never;
            header?: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    /** @description The post’s ETag: send it as If-Match to write only if nobody changed the post since, or as If-None-Match to re-read it cheaply */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Post"];
                };
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: not_found */
            404: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: validation_failed */
            422: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable, tenant_not_certified, tenant_schema_changed */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description meta.next_cursor of the previous page, or any sequence: events after it. Absent: from the oldest event kept. */
                after?: string;
                limit?: number;
                /** @description Comma-separated event types (`post.deleted`) or prefixes (`post.*`); absent: every type */
                types?: string;
            };
            header?: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventPage"];
                };
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: cursor_expired */
            410: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: validation_failed */
            422: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable, tenant_not_certified, tenant_schema_changed */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getEvent: {
        parameters: {
            query?: never;
            header?: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
            };
            path: {
                /** @description The event’s id (msg_…): the `id` of a feed item, the webhook-id header of its deliveries */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Event"];
                };
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: not_found */
            404: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: validation_failed */
            422: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable, tenant_not_certified, tenant_schema_changed */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The calling key and its store: what it may do and how much */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Identity"];
                };
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listImages: {
        parameters: {
            query?: {
                /** @description The previous page’s meta.next_cursor, unchanged. */
                cursor?: string;
                limit?: number;
            };
            header?: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The store’s images, newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImagePage"];
                };
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: feature_unavailable */
            404: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: validation_failed */
            422: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable, tenant_not_certified, tenant_schema_changed */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    uploadImage: {
        parameters: {
            query?: never;
            header?: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description The image: JPEG, PNG, GIF or WebP, decided by content
                     */
                    file: string;
                };
            };
        };
        responses: {
            /** @description The live image this store already has with the same content */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Image"];
                };
            };
            /** @description A new image */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Image"];
                };
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: feature_unavailable */
            404: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: image_too_large */
            413: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: unsupported_media_type */
            415: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: validation_failed */
            422: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited, quota_exceeded */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable, tenant_not_certified, tenant_schema_changed */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getImage: {
        parameters: {
            query?: never;
            header?: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
            };
            path: {
                /** @description The id from the upload response */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An uploaded image */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Image"];
                };
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: feature_unavailable, not_found */
            404: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: validation_failed */
            422: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable, tenant_not_certified, tenant_schema_changed */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteImage: {
        parameters: {
            query?: never;
            header?: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
            };
            path: {
                /** @description The id from the upload response */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: feature_unavailable, not_found */
            404: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: image_in_use */
            409: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: validation_failed */
            422: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable, tenant_not_certified, tenant_schema_changed */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description This OpenAPI 3.1 document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: never;
            header?: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointList"];
                };
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: feature_unavailable */
            404: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: validation_failed */
            422: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable, tenant_not_certified, tenant_schema_changed */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewWebhookEndpoint"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: feature_unavailable */
            404: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: validation_failed */
            422: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable, tenant_not_certified, tenant_schema_changed */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: feature_unavailable, not_found */
            404: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: validation_failed */
            422: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable, tenant_not_certified, tenant_schema_changed */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: feature_unavailable, not_found */
            404: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: validation_failed */
            422: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable, tenant_not_certified, tenant_schema_changed */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookEndpointChanges"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: feature_unavailable, not_found */
            404: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: validation_failed */
            422: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable, tenant_not_certified, tenant_schema_changed */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description The previous page’s meta.next_cursor, unchanged. */
                cursor?: string;
                /** @description Only deliveries of this event type, or of a prefix such as `post.*` */
                event_type?: string;
                limit?: number;
                /**
                 * @description Deliveries created at or after this time
                 * @example 2026-09-14T10:00:00+08:00
                 */
                since?: string;
                /** @description Only deliveries in this state */
                status?: "pending" | "succeeded" | "failed";
                /**
                 * @description Deliveries created before this time
                 * @example 2026-09-14T10:00:00+08:00
                 */
                until?: string;
            };
            header?: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryPage"];
                };
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: feature_unavailable, not_found */
            404: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: validation_failed */
            422: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable, tenant_not_certified, tenant_schema_changed */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getWebhookDelivery: {
        parameters: {
            query?: never;
            header?: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
            };
            path: {
                delivery_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryDetail"];
                };
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: feature_unavailable, not_found */
            404: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: validation_failed */
            422: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable, tenant_not_certified, tenant_schema_changed */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    retryWebhookDelivery: {
        parameters: {
            query?: never;
            header?: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
            };
            path: {
                delivery_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Delivery"];
                };
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: feature_unavailable, not_found */
            404: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: delivery_not_retryable */
            409: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: validation_failed */
            422: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable, tenant_not_certified, tenant_schema_changed */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    replayWebhookEvents: {
        parameters: {
            query?: never;
            header?: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookReplay"];
            };
        };
        responses: {
            /** @description Success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookReplayResult"];
                };
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: feature_unavailable, not_found */
            404: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: delivery_not_retryable */
            409: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: validation_failed */
            422: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable, tenant_not_certified, tenant_schema_changed */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: feature_unavailable, not_found */
            404: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: validation_failed */
            422: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable, tenant_not_certified, tenant_schema_changed */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    sendTestWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description The language of error messages: `en` (or any `en-*`, or English preferred over Chinese by q-values) for English; absent or anything else for Traditional Chinese (`zh-TW`). Codes, details and statuses never change with it. */
                "Accept-Language"?: components["parameters"]["AcceptLanguage"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** @description Optional: without a body a webhook.test event is sent */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["TestWebhookRequest"];
            };
        };
        responses: {
            /** @description Success */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Delivery"];
                };
            };
            /** @description Error codes: unauthorized */
            401: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: insufficient_scope */
            403: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: feature_unavailable, not_found */
            404: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: validation_failed */
            422: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: rate_limited, concurrency_limited */
            429: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: internal_error */
            500: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Error codes: service_unavailable, tenant_not_certified, tenant_schema_changed */
            503: {
                headers: {
                    "Content-Language": components["headers"]["ContentLanguage"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    categoryCreatedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (msg_…): the same on every retry; use it to drop duplicates */
                "webhook-id": string;
                /** @description v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">, space-separated while two secrets are live */
                "webhook-signature": string;
                /** @description Unix seconds of this attempt */
                "webhook-timestamp": string;
                /** @description The event’s sequence in the store’s events feed (GET /v1/events): order by it; absent on webhook.test */
                "X-Event-Sequence"?: string;
                /** @description The handle of the store the event belongs to */
                "X-Store-Handle": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    data: components["schemas"]["Category"];
                    /**
                     * Format: date-time
                     * @description When the event happened, with the store’s offset
                     * @example 2026-09-14T10:00:00+08:00
                     */
                    timestamp: string;
                    /** @constant */
                    type: "category.created";
                };
            };
        };
        responses: {
            /** @description Any 2xx answer within 10 seconds means received; anything else is retried */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    categoryDeletedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (msg_…): the same on every retry; use it to drop duplicates */
                "webhook-id": string;
                /** @description v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">, space-separated while two secrets are live */
                "webhook-signature": string;
                /** @description Unix seconds of this attempt */
                "webhook-timestamp": string;
                /** @description The event’s sequence in the store’s events feed (GET /v1/events): order by it; absent on webhook.test */
                "X-Event-Sequence"?: string;
                /** @description The handle of the store the event belongs to */
                "X-Store-Handle": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    data: {
                        id: number;
                    };
                    /**
                     * Format: date-time
                     * @description When the event happened, with the store’s offset
                     * @example 2026-09-14T10:00:00+08:00
                     */
                    timestamp: string;
                    /** @constant */
                    type: "category.deleted";
                };
            };
        };
        responses: {
            /** @description Any 2xx answer within 10 seconds means received; anything else is retried */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    categoryUpdatedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (msg_…): the same on every retry; use it to drop duplicates */
                "webhook-id": string;
                /** @description v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">, space-separated while two secrets are live */
                "webhook-signature": string;
                /** @description Unix seconds of this attempt */
                "webhook-timestamp": string;
                /** @description The event’s sequence in the store’s events feed (GET /v1/events): order by it; absent on webhook.test */
                "X-Event-Sequence"?: string;
                /** @description The handle of the store the event belongs to */
                "X-Store-Handle": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    data: components["schemas"]["Category"];
                    /**
                     * Format: date-time
                     * @description When the event happened, with the store’s offset
                     * @example 2026-09-14T10:00:00+08:00
                     */
                    timestamp: string;
                    /** @constant */
                    type: "category.updated";
                };
            };
        };
        responses: {
            /** @description Any 2xx answer within 10 seconds means received; anything else is retried */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    imageDeletedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (msg_…): the same on every retry; use it to drop duplicates */
                "webhook-id": string;
                /** @description v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">, space-separated while two secrets are live */
                "webhook-signature": string;
                /** @description Unix seconds of this attempt */
                "webhook-timestamp": string;
                /** @description The event’s sequence in the store’s events feed (GET /v1/events): order by it; absent on webhook.test */
                "X-Event-Sequence"?: string;
                /** @description The handle of the store the event belongs to */
                "X-Store-Handle": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    data: components["schemas"]["Image"];
                    /**
                     * Format: date-time
                     * @description When the event happened, with the store’s offset
                     * @example 2026-09-14T10:00:00+08:00
                     */
                    timestamp: string;
                    /** @constant */
                    type: "image.deleted";
                };
            };
        };
        responses: {
            /** @description Any 2xx answer within 10 seconds means received; anything else is retried */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    imageUploadedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (msg_…): the same on every retry; use it to drop duplicates */
                "webhook-id": string;
                /** @description v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">, space-separated while two secrets are live */
                "webhook-signature": string;
                /** @description Unix seconds of this attempt */
                "webhook-timestamp": string;
                /** @description The event’s sequence in the store’s events feed (GET /v1/events): order by it; absent on webhook.test */
                "X-Event-Sequence"?: string;
                /** @description The handle of the store the event belongs to */
                "X-Store-Handle": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    data: components["schemas"]["Image"];
                    /**
                     * Format: date-time
                     * @description When the event happened, with the store’s offset
                     * @example 2026-09-14T10:00:00+08:00
                     */
                    timestamp: string;
                    /** @constant */
                    type: "image.uploaded";
                };
            };
        };
        responses: {
            /** @description Any 2xx answer within 10 seconds means received; anything else is retried */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    postCreatedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (msg_…): the same on every retry; use it to drop duplicates */
                "webhook-id": string;
                /** @description v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">, space-separated while two secrets are live */
                "webhook-signature": string;
                /** @description Unix seconds of this attempt */
                "webhook-timestamp": string;
                /** @description The event’s sequence in the store’s events feed (GET /v1/events): order by it; absent on webhook.test */
                "X-Event-Sequence"?: string;
                /** @description The handle of the store the event belongs to */
                "X-Store-Handle": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    data: components["schemas"]["Post"];
                    /**
                     * Format: date-time
                     * @description When the event happened, with the store’s offset
                     * @example 2026-09-14T10:00:00+08:00
                     */
                    timestamp: string;
                    /** @constant */
                    type: "post.created";
                };
            };
        };
        responses: {
            /** @description Any 2xx answer within 10 seconds means received; anything else is retried */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    postDeletedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (msg_…): the same on every retry; use it to drop duplicates */
                "webhook-id": string;
                /** @description v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">, space-separated while two secrets are live */
                "webhook-signature": string;
                /** @description Unix seconds of this attempt */
                "webhook-timestamp": string;
                /** @description The event’s sequence in the store’s events feed (GET /v1/events): order by it; absent on webhook.test */
                "X-Event-Sequence"?: string;
                /** @description The handle of the store the event belongs to */
                "X-Store-Handle": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    data: {
                        id: number;
                    };
                    /**
                     * Format: date-time
                     * @description When the event happened, with the store’s offset
                     * @example 2026-09-14T10:00:00+08:00
                     */
                    timestamp: string;
                    /** @constant */
                    type: "post.deleted";
                };
            };
        };
        responses: {
            /** @description Any 2xx answer within 10 seconds means received; anything else is retried */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    postPublishedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (msg_…): the same on every retry; use it to drop duplicates */
                "webhook-id": string;
                /** @description v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">, space-separated while two secrets are live */
                "webhook-signature": string;
                /** @description Unix seconds of this attempt */
                "webhook-timestamp": string;
                /** @description The event’s sequence in the store’s events feed (GET /v1/events): order by it; absent on webhook.test */
                "X-Event-Sequence"?: string;
                /** @description The handle of the store the event belongs to */
                "X-Store-Handle": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    data: components["schemas"]["Post"];
                    /**
                     * Format: date-time
                     * @description When the event happened, with the store’s offset
                     * @example 2026-09-14T10:00:00+08:00
                     */
                    timestamp: string;
                    /** @constant */
                    type: "post.published";
                };
            };
        };
        responses: {
            /** @description Any 2xx answer within 10 seconds means received; anything else is retried */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    postScheduledEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (msg_…): the same on every retry; use it to drop duplicates */
                "webhook-id": string;
                /** @description v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">, space-separated while two secrets are live */
                "webhook-signature": string;
                /** @description Unix seconds of this attempt */
                "webhook-timestamp": string;
                /** @description The event’s sequence in the store’s events feed (GET /v1/events): order by it; absent on webhook.test */
                "X-Event-Sequence"?: string;
                /** @description The handle of the store the event belongs to */
                "X-Store-Handle": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    data: components["schemas"]["Post"];
                    /**
                     * Format: date-time
                     * @description When the event happened, with the store’s offset
                     * @example 2026-09-14T10:00:00+08:00
                     */
                    timestamp: string;
                    /** @constant */
                    type: "post.scheduled";
                };
            };
        };
        responses: {
            /** @description Any 2xx answer within 10 seconds means received; anything else is retried */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    postUnpublishedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (msg_…): the same on every retry; use it to drop duplicates */
                "webhook-id": string;
                /** @description v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">, space-separated while two secrets are live */
                "webhook-signature": string;
                /** @description Unix seconds of this attempt */
                "webhook-timestamp": string;
                /** @description The event’s sequence in the store’s events feed (GET /v1/events): order by it; absent on webhook.test */
                "X-Event-Sequence"?: string;
                /** @description The handle of the store the event belongs to */
                "X-Store-Handle": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    data: components["schemas"]["Post"];
                    /**
                     * Format: date-time
                     * @description When the event happened, with the store’s offset
                     * @example 2026-09-14T10:00:00+08:00
                     */
                    timestamp: string;
                    /** @constant */
                    type: "post.unpublished";
                };
            };
        };
        responses: {
            /** @description Any 2xx answer within 10 seconds means received; anything else is retried */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    postUpdatedEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (msg_…): the same on every retry; use it to drop duplicates */
                "webhook-id": string;
                /** @description v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">, space-separated while two secrets are live */
                "webhook-signature": string;
                /** @description Unix seconds of this attempt */
                "webhook-timestamp": string;
                /** @description The event’s sequence in the store’s events feed (GET /v1/events): order by it; absent on webhook.test */
                "X-Event-Sequence"?: string;
                /** @description The handle of the store the event belongs to */
                "X-Store-Handle": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    data: components["schemas"]["Post"];
                    /**
                     * Format: date-time
                     * @description When the event happened, with the store’s offset
                     * @example 2026-09-14T10:00:00+08:00
                     */
                    timestamp: string;
                    /** @constant */
                    type: "post.updated";
                };
            };
        };
        responses: {
            /** @description Any 2xx answer within 10 seconds means received; anything else is retried */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookTestEvent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event id (msg_…): the same on every retry; use it to drop duplicates */
                "webhook-id": string;
                /** @description v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">, space-separated while two secrets are live */
                "webhook-signature": string;
                /** @description Unix seconds of this attempt */
                "webhook-timestamp": string;
                /** @description The event’s sequence in the store’s events feed (GET /v1/events): order by it; absent on webhook.test */
                "X-Event-Sequence"?: string;
                /** @description The handle of the store the event belongs to */
                "X-Store-Handle": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    data: components["schemas"]["WebhookEndpoint"];
                    /**
                     * Format: date-time
                     * @description When the event happened, with the store’s offset
                     * @example 2026-09-14T10:00:00+08:00
                     */
                    timestamp: string;
                    /** @constant */
                    type: "webhook.test";
                };
            };
        };
        responses: {
            /** @description Any 2xx answer within 10 seconds means received; anything else is retried */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
