import { sql, type Kysely, type CreateTableBuilder } from 'kysely';
import type { Engine } from '../database.js';

/** An auto-increment integer primary key, spelled per engine. */
function withSerialId<T extends string>(table: CreateTableBuilder<T, never>, engine: Engine) {
  return engine === 'postgres'
    ? table.addColumn('id', 'bigserial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

export function initialMigration(engine: Engine) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('service_settings')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();

      await withSerialId(db.schema.createTable('stores'), engine)
        .addColumn('handle', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('categories_enabled', 'integer', (c) => c.notNull())
        .addColumn('media_enabled', 'integer', (c) => c.notNull())
        .addColumn('certified', 'integer', (c) => c.notNull())
        .addColumn('writes_paused', 'integer', (c) => c.notNull())
        .addColumn('emoji_allowed', 'integer', (c) => c.notNull())
        .addColumn('title_max_length', 'integer', (c) => c.notNull())
        .addColumn('body_max_bytes', 'integer', (c) => c.notNull())
        .addColumn('posts_per_day', 'integer', (c) => c.notNull())
        .addColumn('images_per_day', 'integer', (c) => c.notNull())
        .addColumn('image_max_bytes', 'integer', (c) => c.notNull())
        .addColumn('image_max_pixels', 'bigint', (c) => c.notNull())
        .addColumn('image_max_width', 'integer', (c) => c.notNull())
        .addColumn('image_max_gif_frames', 'integer', (c) => c.notNull())
        .addColumn('image_max_total_pixels', 'bigint', (c) => c.notNull())
        .addColumn('category_max_depth', 'integer', (c) => c.notNull())
        .addColumn('storefront_base_url', 'text')
        .addColumn('utc_offset', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('api_keys')
        .addColumn('key_id', 'text', (c) => c.primaryKey())
        .addColumn('store_id', 'bigint', (c) => c.notNull().references('stores.id'))
        .addColumn('application', 'text', (c) => c.notNull())
        .addColumn('secret_hash', 'text', (c) => c.notNull())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint')
        .addColumn('revoked_at', 'bigint')
        .addColumn('read_per_minute', 'integer', (c) => c.notNull())
        .addColumn('write_per_minute', 'integer', (c) => c.notNull())
        .addColumn('concurrency', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('api_keys_store').on('api_keys').columns(['store_id']).execute();

      await withSerialId(db.schema.createTable('audit_events'), engine)
        .addColumn('store_id', 'bigint', (c) => c.notNull().references('stores.id'))
        .addColumn('occurred_at', 'bigint', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('resource_type', 'text', (c) => c.notNull())
        .addColumn('resource_id', 'text', (c) => c.notNull())
        .addColumn('key_id', 'text')
        .addColumn('application', 'text')
        .addColumn('request_id', 'text')
        .addColumn('changes', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('audit_events_store_id').on('audit_events').columns(['store_id', 'id']).execute();

      await withSerialId(db.schema.createTable('categories'), engine)
        .addColumn('store_id', 'bigint', (c) => c.notNull().references('stores.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('parent_id', 'bigint', (c) => c.references('categories.id'))
        .addColumn('parent_key', 'bigint', (c) => c.notNull())
        .addColumn('depth', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('categories_name_per_parent', ['store_id', 'parent_key', 'name'])
        .execute();

      await db.schema
        .createTable('images')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('store_id', 'bigint', (c) => c.notNull().references('stores.id'))
        .addColumn('basename', 'text', (c) => c.notNull().unique())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('bytes', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('deleted_at', 'bigint')
        .execute();
      // One live image per content per store; a deleted one frees the content for a new id.
      await sql`CREATE UNIQUE INDEX images_live_content ON images (store_id, sha256) WHERE deleted_at IS NULL`.execute(
        db,
      );

      await withSerialId(db.schema.createTable('posts'), engine)
        .addColumn('store_id', 'bigint', (c) => c.notNull().references('stores.id'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('summary', 'text')
        .addColumn('body_html', 'text', (c) => c.notNull())
        .addColumn('warnings', 'text', (c) => c.notNull())
        .addColumn('cover_image_id', 'text', (c) => c.references('images.id'))
        .addColumn('default_category_id', 'bigint')
        .addColumn('published_at', 'bigint')
        .addColumn('view_count', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('posts_store_created')
        .on('posts')
        .columns(['store_id', 'created_at', 'id'])
        .execute();

      await db.schema
        .createTable('post_categories')
        .addColumn('post_id', 'bigint', (c) => c.notNull().references('posts.id').onDelete('cascade'))
        .addColumn('category_id', 'bigint', (c) => c.notNull().references('categories.id'))
        .addColumn('store_id', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('post_categories_pk', ['post_id', 'category_id'])
        .execute();
      await db.schema
        .createIndex('post_categories_category')
        .on('post_categories')
        .columns(['category_id', 'post_id'])
        .execute();

      await db.schema
        .createTable('post_product_links')
        .addColumn('store_id', 'bigint', (c) => c.notNull())
        .addColumn('post_id', 'bigint', (c) => c.notNull().references('posts.id').onDelete('cascade'))
        .addColumn('product_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('post_product_links_pk', ['post_id', 'product_id'])
        .execute();

      await db.schema
        .createTable('content_fingerprints')
        .addColumn('store_id', 'bigint', (c) => c.notNull())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('post_id', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('content_fingerprints_pk', ['store_id', 'fingerprint'])
        .execute();

      await db.schema
        .createTable('idempotency_records')
        .addColumn('store_id', 'bigint', (c) => c.notNull())
        .addColumn('application', 'text', (c) => c.notNull())
        .addColumn('idem_key', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('response_body', 'text')
        .addColumn('location', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_records_pk', ['store_id', 'application', 'idem_key'])
        .execute();

      await db.schema
        .createTable('delete_confirmations')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('store_id', 'bigint', (c) => c.notNull())
        .addColumn('post_id', 'bigint', (c) => c.notNull())
        .addColumn('key_id', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('daily_usage')
        .addColumn('store_id', 'bigint', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('used', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('daily_usage_pk', ['store_id', 'kind', 'day'])
        .execute();
    },
  };
}
