import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable } from '../../lib/schema-kit.js';

export const CategorySchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    parent_id: Nullable(Type.Integer()),
    depth: Type.Integer({ description: 'A root category has depth 1' }),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { title: 'Category' },
);
export type CategoryView = Static<typeof CategorySchema>;

export const CategoryListSchema = Type.Object({ data: Type.Array(CategorySchema) }, { title: 'CategoryList' });

export const CreateCategoryBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 400, description: 'Trimmed; 1–100 characters' }),
    parent_id: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }))),
  },
  { additionalProperties: false, title: 'NewCategory' },
);
export type CreateCategoryInput = Static<typeof CreateCategoryBody>;

/** PATCH: rename, move, or both at once; at least one field. */
export const UpdateCategoryBody = Type.Object(
  {
    name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 400,
        description: 'Trimmed; 1–100 characters; unique under the (new) parent',
      }),
    ),
    parent_id: Type.Optional(
      Nullable(
        Type.Integer({
          minimum: 1,
          maximum: Number.MAX_SAFE_INTEGER,
          description:
            'Move under this category (null: to the root). Not under itself or a descendant; the deepest category of the moved subtree must stay within limits.category_max_depth',
        }),
      ),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateCategoryInput = Static<typeof UpdateCategoryBody>;
