import { Type } from '@sinclair/typebox';
import { DateTime, Nullable } from '../../lib/schema-kit.js';

const Quota = Type.Object({
  limit: Type.Integer(),
  used: Type.Integer(),
  remaining: Type.Integer(),
  resets_at: DateTime('Next Taipei midnight, with +08:00'),
});

export const IdentitySchema = Type.Object(
  {
    api_version: Type.String(),
    key_id: Type.String(),
    application: Type.String(),
    store: Type.Object({ handle: Type.String(), name: Type.String() }),
    scopes: Type.Array(Type.String()),
    key_expires_at: Nullable(DateTime('null: the key does not expire')),
    features: Type.Object({ blog_categories: Type.Boolean(), media_upload: Type.Boolean(), webhooks: Type.Boolean() }),
    limits: Type.Object({
      title_allows_emoji: Type.Boolean(),
      title_max_length: Type.Integer(),
      body_max_bytes: Type.Integer(),
      image_formats: Type.Array(Type.String()),
      image_max_bytes: Type.Integer(),
      image_max_pixels: Type.Integer(),
      image_max_gif_frames: Type.Integer(),
      image_max_total_pixels: Type.Integer(),
      image_max_width: Type.Integer(),
      category_max_depth: Type.Integer(),
    }),
    quotas: Type.Object({ posts_per_day: Quota, images_per_day: Quota }),
    rate_limits: Type.Object({
      read_per_minute: Type.Integer(),
      write_per_minute: Type.Integer(),
      concurrency: Type.Integer(),
    }),
  },
  { title: 'Identity', description: 'The calling key and its store: what it may do and how much' },
);
