import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, OffsetDateTime, PageMetaSchema, PageQuery } from '../../lib/schema-kit.js';

const CategoryIds = Type.Array(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }), {
  uniqueItems: true,
  maxItems: 100,
  description: 'All categories of the post: positive, unique',
});

const writable = {
  title: Type.String({ maxLength: 10_000, description: 'Trimmed; 1..limits.title_max_length characters' }),
  body_html: Type.String({ description: 'Filtered by an allow-list; removed items are listed in warnings' }),
  summary: Nullable(Type.String({ maxLength: 10_000 })),
  category_ids: Nullable(CategoryIds),
  default_category_id: Nullable(
    Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Must be one of category_ids' }),
  ),
  cover_image_url: Type.String({ maxLength: 2048, description: 'The url of an image uploaded by this store' }),
};

export const CreatePostBody = Type.Object(
  {
    title: writable.title,
    body_html: writable.body_html,
    summary: Type.Optional(writable.summary),
    category_ids: Type.Optional(writable.category_ids),
    default_category_id: Type.Optional(writable.default_category_id),
    cover_image_url: Type.Optional(Nullable(writable.cover_image_url)),
  },
  { additionalProperties: false, title: 'NewPost' },
);
export type CreatePostInput = Static<typeof CreatePostBody>;

/** PATCH: every field optional, at least one; title, body_html and cover_image_url take no null. */
export const UpdatePostBody = Type.Object(
  {
    title: Type.Optional(writable.title),
    body_html: Type.Optional(writable.body_html),
    summary: Type.Optional(writable.summary),
    category_ids: Type.Optional(writable.category_ids),
    default_category_id: Type.Optional(writable.default_category_id),
    cover_image_url: Type.Optional(writable.cover_image_url),
  },
  { additionalProperties: false, minProperties: 1, title: 'PostChanges' },
);
export type UpdatePostInput = Static<typeof UpdatePostBody>;

export const PublishBody = Type.Object(
  {
    published_at: Type.Optional(
      Nullable(OffsetDateTime('Omitted, null or past: publish now (or back-dated); future: schedule')),
    ),
  },
  {
    additionalProperties: false,
    'x-optional-body': true,
    title: 'PublishRequest',
    description: 'Optional: without a body (or with published_at null) the post is published now',
  },
);

export const DeleteBody = Type.Object(
  {
    confirmation_token: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'From the details of the first call’s 409 confirmation_required',
    }),
  },
  {
    additionalProperties: false,
    'x-optional-body': true,
    title: 'DeleteConfirmation',
    description: 'Omitted on the first call; sent with the token on the second',
  },
);

const CoverImage = Type.Object({
  path: Type.String({ description: 'Path within the site' }),
  url: Type.String({ description: 'Full address of the image' }),
});

const postFields = {
  id: Type.Integer(),
  title: Type.String(),
  summary: Nullable(Type.String()),
  cover_image: Type.Union([CoverImage, Type.Null()], { description: 'null when the post has no cover' }),
  status: Type.String({
    enum: ['draft', 'scheduled', 'published'],
    description: 'Derived from the publish time; new values may be added',
  }),
  published_at: Nullable(DateTime('When the post is (or was) published, with the store’s offset; null for a draft')),
  category_ids: Type.Array(Type.Integer()),
  default_category_id: Nullable(Type.Integer()),
  view_count: Type.Integer({ description: 'Store-front views; not part of the ETag' }),
  public_url: Nullable(Type.String({ description: 'The post’s store-front page while published; null otherwise' })),
  created_at: DateTime(),
  updated_at: DateTime(),
};

export const PostSchema = Type.Object(
  {
    ...postFields,
    body_html: Type.String({ description: 'As stored, after the allow-list filter' }),
    warnings: Type.Array(Type.String(), { description: 'What the filter removed from the body sent' }),
  },
  { title: 'Post' },
);
export type PostView = Static<typeof PostSchema>;
export const PostListItemSchema = Type.Object(postFields, {
  title: 'PostListItem',
  description: 'A post as listed: every field but body_html and warnings',
});
export type PostListItem = Static<typeof PostListItemSchema>;

export const PostListQuery = Type.Object(
  {
    status: Type.Optional(Type.String({ enum: ['draft', 'scheduled', 'published'] })),
    category_id: Type.Optional(
      Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Only when categories are enabled' }),
    ),
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'Free text: posts whose title, summary or body text (without markup) contains every white-space separated term, case-insensitively. Chinese needs no spaces: a term of 2 or more characters matches where that string occurs. A filter: the order stays that of order_by.',
      }),
    ),
    order_by: Type.Optional(
      Type.String({
        enum: ['created_at', 'published_at', 'updated_at'],
        default: 'created_at',
        description: 'published_at: drafts come last in both directions',
      }),
    ),
    direction: Type.Optional(Type.String({ enum: ['desc', 'asc'], default: 'desc' })),
    updated_since: Type.Optional(
      OffsetDateTime(
        'Only posts updated at or after this time. With order_by=updated_at and direction=asc this is the sync feed: paging never skips or repeats a post that did not change during the walk.',
      ),
    ),
    ...PageQuery,
  },
  { additionalProperties: false },
);
export type PostListQueryInput = Static<typeof PostListQuery>;

/** The Content API's list: published posts only, newest published first; the other conditions as above. */
export const ContentPostListQuery = Type.Object(
  { category_id: PostListQuery.properties.category_id, q: PostListQuery.properties.q, ...PageQuery },
  { additionalProperties: false },
);
export type ContentPostListQueryInput = Static<typeof ContentPostListQuery>;

export const PostPageSchema = Type.Object(
  { data: Type.Array(PostListItemSchema), meta: PageMetaSchema },
  { title: 'PostPage' },
);
