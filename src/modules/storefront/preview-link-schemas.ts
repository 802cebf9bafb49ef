import { Type } from '@sinclair/typebox';
import { PREVIEW_DEFAULT_SECONDS, PREVIEW_MAX_SECONDS, PREVIEW_MIN_SECONDS } from './preview-links.js';

export const PreviewLinkBody = Type.Object(
  {
    expires_in_seconds: Type.Optional(
      Type.Integer({
        minimum: PREVIEW_MIN_SECONDS,
        maximum: PREVIEW_MAX_SECONDS,
        default: PREVIEW_DEFAULT_SECONDS,
        description: 'How long the link works: 60 seconds to 7 days (default 1 day)',
      }),
    ),
  },
  { additionalProperties: false, 'x-optional-body': true, description: 'Optional body' },
);

export const PreviewLinkSchema = Type.Object({
  url: Type.String({
    description:
      'Opens the post as the store front renders it, with its current content, whatever its status: marked noindex (meta tag and X-Robots-Tag), with a visible preview banner, not counted in view_count. Unguessable (signed); 404 after expires_at or once the post is deleted. Share it only with the people meant to see the draft.',
  }),
  expires_at: Type.String({ description: 'In the store’s UTC offset, to the second' }),
});
