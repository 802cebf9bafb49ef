// Realistic examples for the named schemas of the OpenAPI document (by component name), shown
// by /docs and generated clients. Each must validate against its schema (the lint checks).
const POST_TIMES = { created_at: '2026-09-14T09:30:00+08:00', updated_at: '2026-09-14T10:05:00+08:00' };

const listItem = {
  id: 1042,
  title: '秋季新品：手沖咖啡入門指南',
  summary: 'Three beans and one kettle: how we brew the autumn range in the shop.',
  cover_image: {
    path: '/media/brewlab/k3v9x0c1m2n4b5v6c7x8z9l0.jpg',
    url: 'https://blog.example.com/media/brewlab/k3v9x0c1m2n4b5v6c7x8z9l0.jpg',
  },
  status: 'published',
  published_at: '2026-09-14T10:00:00+08:00',
  category_ids: [3, 7],
  default_category_id: 3,
  view_count: 128,
  public_url: 'https://brewlab.example.com/blog/posts/1042',
  ...POST_TIMES,
};

const post = {
  ...listItem,
  body_html:
    '<h2>Grind</h2><p>Medium-fine, like table salt. <strong>Weigh</strong> 15 g for 250 ml.</p><ul><li>92 °C water</li><li>Bloom 30 s</li></ul>',
  warnings: [],
};

const category = {
  id: 3,
  name: 'Brewing guides',
  parent_id: null,
  depth: 1,
  created_at: '2026-09-01T12:00:00+08:00',
  updated_at: '2026-09-01T12:00:00+08:00',
};

const auditEvent = {
  id: 5531,
  occurred_at: '2026-09-14T10:05:00+08:00',
  action: 'post.updated',
  resource_type: 'post',
  resource_id: '1042',
  key_id: 'k7m2q9x4',
  application: 'brewlab-cms',
  request_id: 'req_8Qm2T4w9Lx0Vb7Yc',
  changes: ['body_html', 'title'],
};

const endpoint = {
  id: 'wh_4f8k2m9x7q1z',
  url: 'https://hooks.brewlab.example.com/blog',
  events: ['post.published', 'post.unpublished'],
  description: 'Rebuild the shop’s static pages',
  enabled: true,
  disabled_reason: null,
  circuit_open_until: null,
  created_at: '2026-09-10T08:00:00+08:00',
  updated_at: '2026-09-10T08:00:00+08:00',
};

export const COMPONENT_EXAMPLES: Record<string, unknown> = {
  Post: post,
  PostListItem: listItem,
  PostPage: { data: [listItem], meta: { next_cursor: 'eyJwIjpbMTc1Nzc...', limit: 20 } },
  NewPost: {
    title: '秋季新品：手沖咖啡入門指南',
    body_html: '<h2>Grind</h2><p>Medium-fine, like table salt. <strong>Weigh</strong> 15 g for 250 ml.</p>',
    summary: 'Three beans and one kettle: how we brew the autumn range in the shop.',
    category_ids: [3, 7],
    default_category_id: 3,
    cover_image_url: 'https://blog.example.com/media/brewlab/k3v9x0c1m2n4b5v6c7x8z9l0.jpg',
  },
  PostChanges: { title: '秋季新品：手沖咖啡入門指南（更新版）', summary: 'Now with a cold-brew section.' },
  PublishRequest: { published_at: '2026-09-20T09:00:00+08:00' },
  TestWebhookRequest: { type: 'post.published' },
  DeleteConfirmation: { confirmation_token: 'dc_7KfQ2mZp9xLw4RtY6vBn8cJd' },
  Image: {
    id: 'img_3k9x0c1m2n4b5v6c7x8z9l0k',
    basename: 'k3v9x0c1m2n4b5v6c7x8z9l0.jpg',
    path: '/media/brewlab/k3v9x0c1m2n4b5v6c7x8z9l0.jpg',
    url: 'https://blog.example.com/media/brewlab/k3v9x0c1m2n4b5v6c7x8z9l0.jpg',
    content_type: 'image/jpeg',
    width: 1600,
    height: 1067,
    bytes: 248311,
  },
  Category: category,
  CategoryList: { data: [category, { ...category, id: 7, name: 'Pour-over', parent_id: 3, depth: 2 }] },
  NewCategory: { name: 'Pour-over', parent_id: 3 },
  Identity: {
    api_version: '2026-09-14',
    key_id: 'k7m2q9x4',
    application: 'brewlab-cms',
    store: { handle: 'brewlab', name: 'Brew Lab 咖啡實驗室' },
    scopes: ['read_blog', 'write_blog', 'publish_blog', 'write_media'],
    key_expires_at: '2027-09-14T00:00:00+08:00',
    features: { blog_categories: true, media_upload: true, webhooks: true },
    limits: {
      title_allows_emoji: false,
      title_max_length: 200,
      body_max_bytes: 524288,
      image_formats: ['jpeg', 'png', 'gif', 'webp'],
      image_max_bytes: 10485760,
      image_max_pixels: 40000000,
      image_max_gif_frames: 300,
      image_max_total_pixels: 400000000,
      image_max_width: 2560,
      category_max_depth: 3,
    },
    quotas: {
      posts_per_day: { limit: 100, used: 12, remaining: 88, resets_at: '2026-09-15T00:00:00+08:00' },
      images_per_day: { limit: 500, used: 40, remaining: 460, resets_at: '2026-09-15T00:00:00+08:00' },
    },
    rate_limits: { read_per_minute: 600, write_per_minute: 120, concurrency: 10 },
  },
  AuditEvent: auditEvent,
  AuditEventPage: { data: [auditEvent], meta: { next_cursor: null, limit: 20 } },
  WebhookEndpoint: endpoint,
  WebhookEndpointWithSecret: { ...endpoint, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
  WebhookEndpointList: { data: [endpoint] },
  NewWebhookEndpoint: {
    url: 'https://hooks.brewlab.example.com/blog',
    events: ['post.published', 'post.unpublished'],
    description: 'Rebuild the shop’s static pages',
  },
  WebhookEndpointChanges: { enabled: true },
  Delivery: {
    id: 'whd_9x2k4m7q1z8f',
    event_id: 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W',
    event_type: 'post.published',
    status: 'succeeded',
    attempts: 1,
    last_attempt_at: '2026-09-14T10:00:01+08:00',
    last_response_status: 204,
    next_attempt_at: null,
    waiting_reason: null,
    created_at: '2026-09-14T10:00:00+08:00',
  },
};
COMPONENT_EXAMPLES.DeliveryPage = { data: [COMPONENT_EXAMPLES.Delivery], meta: { next_cursor: null, limit: 20 } };
COMPONENT_EXAMPLES.Event = {
  id: 'msg_2kwpbgllafxdpx2ai54ppj85',
  sequence: 1042,
  type: 'post.deleted',
  timestamp: '2026-09-14T10:00:00+08:00',
  handle: 'brewlab',
  data: { id: 1234 },
};
COMPONENT_EXAMPLES.ImagePage = {
  data: [COMPONENT_EXAMPLES.Image],
  meta: { next_cursor: 'eyJoIjoiOWQ0YjE...', limit: 20 },
};
COMPONENT_EXAMPLES.EventPage = {
  data: [COMPONENT_EXAMPLES.Event],
  meta: { next_cursor: '1042', has_more: false, limit: 100 },
};
COMPONENT_EXAMPLES.DeliveryAttempt = {
  id: 'wha_4f8k2m9q1z7x3c5v6b8n0p2r',
  started_at: '2026-09-14T10:00:01+08:00',
  state: 'failed',
  duration_ms: 10003,
  response_status: null,
  error: 'no complete answer within 10000 ms',
  response_body: null,
};
COMPONENT_EXAMPLES.DeliveryDetail = {
  ...(COMPONENT_EXAMPLES.Delivery as object),
  retry_of: null,
  attempt_history: [
    {
      ...(COMPONENT_EXAMPLES.DeliveryAttempt as object),
      state: 'succeeded',
      duration_ms: 84,
      response_status: 204,
      error: null,
      response_body: '',
    },
  ],
};
COMPONENT_EXAMPLES.WebhookReplay = {
  since: '2026-09-10T00:00:00+08:00',
  until: '2026-09-14T00:00:00+08:00',
  types: ['post.*'],
};
COMPONENT_EXAMPLES.WebhookReplayResult = { queued: 318, first_sequence: 724, last_sequence: 1041 };
