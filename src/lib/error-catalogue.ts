// The one place where an error code meets its HTTP status, its `retryable` flag and its
// message in each language the API answers in (docs/api-behaviour.md, "Requests and responses":
// one status and one `retryable` per code; "Error messages in English": how the language is chosen).

/** The languages of error messages; the first is the default (the contract's Traditional Chinese). */
export const MESSAGE_LANGUAGES = ['zh-TW', 'en'] as const;
export type MessageLanguage = (typeof MESSAGE_LANGUAGES)[number];
export const DEFAULT_MESSAGE_LANGUAGE: MessageLanguage = MESSAGE_LANGUAGES[0];

export interface ErrorSpec {
  status: number;
  retryable: boolean;
  /** Says what happened and the next step, in every language (the type makes each one required). Wording may change. */
  messages: Record<MessageLanguage, string>;
}

export const ERROR_CATALOGUE = {
  unauthorized: {
    status: 401,
    retryable: false,
    messages: {
      'zh-TW': '金鑰缺少或無效。請確認 Authorization 標頭為「Bearer <API_KEY>」格式，且金鑰未過期或撤銷。',
      en: 'The key is missing or invalid. Check that the Authorization header reads "Bearer <API_KEY>" and that the key has not expired or been revoked.',
    },
  },
  insufficient_scope: {
    status: 403,
    retryable: false,
    messages: {
      'zh-TW': '此金鑰缺少所需的權限範圍。請向營運人員申請具備 details 所列範圍的金鑰。',
      en: 'This key lacks a scope the operation needs. Ask the operator for a key with the scopes listed in details.',
    },
  },
  not_found: {
    status: 404,
    retryable: false,
    messages: {
      'zh-TW': '找不到指定的資源。請確認路徑與 ID 是否正確。',
      en: 'The resource was not found. Check the path and the id.',
    },
  },
  feature_unavailable: {
    status: 404,
    retryable: false,
    messages: {
      'zh-TW': '此商店尚未啟用這項功能。請先讀取 GET /v1/me 的 features 再呼叫。',
      en: 'This feature is not enabled for the store. Read features in GET /v1/me before calling.',
    },
  },
  validation_failed: {
    status: 422,
    retryable: false,
    messages: {
      'zh-TW': '請求欄位驗證失敗。請依 details 逐一修正欄位後再送出。',
      en: 'The request did not pass validation. Fix each field listed in details and send it again.',
    },
  },
  title_charset_unsupported: {
    status: 422,
    retryable: false,
    messages: {
      'zh-TW':
        '標題含有此商店無法儲存的字元。請移除 details 所列字元；可先參考 GET /v1/me 的 limits.title_allows_emoji。',
      en: 'The title has characters this store cannot hold. Remove the characters listed in details; check limits.title_allows_emoji in GET /v1/me beforehand.',
    },
  },
  cover_image_not_owned: {
    status: 422,
    retryable: false,
    messages: {
      'zh-TW': '封面圖片網址不屬於此商店。請以 POST /v1/media/images 上傳，並原樣使用回傳的 url。',
      en: "The cover image address is not this store's. Upload it with POST /v1/media/images and use the url it returns unchanged.",
    },
  },
  content_too_large: {
    status: 413,
    retryable: false,
    messages: {
      'zh-TW': '內容超過此商店的上限。請縮短或拆分 body_html；上限見 GET /v1/me 的 limits.body_max_bytes。',
      en: "The content exceeds this store's limit. Shorten or split body_html; the limit is limits.body_max_bytes in GET /v1/me.",
    },
  },
  image_too_large: {
    status: 413,
    retryable: false,
    messages: {
      'zh-TW': '圖片檔案或像素超過上限。請在本機縮小後再上傳；上限見 GET /v1/me 的 limits。',
      en: 'The image file or its pixels exceed the limit. Shrink it locally and upload it again; the limits are in GET /v1/me.',
    },
  },
  unsupported_media_type: {
    status: 415,
    retryable: false,
    messages: {
      'zh-TW': '不支援的圖片格式。請轉換為 limits.image_formats 所列格式後再上傳。',
      en: 'The image format is not supported. Convert it to a format listed in limits.image_formats and upload it again.',
    },
  },
  idempotency_key_reused: {
    status: 409,
    retryable: false,
    messages: {
      'zh-TW': '此 Idempotency-Key 先前已用於不同內容。請送出完全相同的內容，或改用新的金鑰。',
      en: 'This Idempotency-Key was used before with different content. Send exactly the same content, or use a new key.',
    },
  },
  idempotency_in_progress: {
    status: 409,
    retryable: true,
    messages: {
      'zh-TW': '使用此 Idempotency-Key 的第一個請求仍在處理中。請於 Retry-After 秒後原樣重送。',
      en: 'The first request with this Idempotency-Key is still being processed. Send it again unchanged after Retry-After seconds.',
    },
  },
  duplicate_content: {
    status: 409,
    retryable: false,
    messages: {
      'zh-TW': '十分鐘內已建立標題與內文相同的文章。請改用 details 所列的文章。',
      en: 'A post with the same title and body was created within the last ten minutes. Use the post listed in details.',
    },
  },
  confirmation_required: {
    status: 409,
    retryable: false,
    messages: {
      'zh-TW': '刪除需要第二步確認。請在有效期限內帶著 details 中的 confirmation_token 再送一次刪除請求。',
      en: 'Deleting needs a second, confirming call. Send the delete again with the confirmation_token from details before it expires.',
    },
  },
  post_is_published: {
    status: 409,
    retryable: false,
    messages: {
      'zh-TW': '已發佈或已排程的文章不能刪除。請先取消發佈，再刪除。',
      en: 'A published or scheduled post cannot be deleted. Unpublish it first, then delete it.',
    },
  },
  post_has_product_links: {
    status: 409,
    retryable: false,
    messages: {
      'zh-TW': '文章仍連結到商品。請由人員在商店後台移除連結後再刪除。',
      en: 'The post is still linked to products. A person removes the links in the store back office; then delete it again.',
    },
  },
  precondition_failed: {
    status: 412,
    retryable: false,
    messages: {
      'zh-TW':
        '文章在您取得 ETag 之後已被修改，本次未寫入任何內容。請重新讀取文章（GET）取得最新內容與 ETag，確認變更後帶新的 If-Match 再送出。',
      en: 'The post has changed since you got its ETag; nothing was written. Read the post again (GET) for its current content and ETag, check your change, and send it with the new If-Match.',
    },
  },
  category_name_conflict: {
    status: 409,
    retryable: false,
    messages: {
      'zh-TW': '同一父分類下已有相同名稱的分類。請沿用 details 中的分類 ID，或改用其他名稱。',
      en: 'A category with this name already exists under the same parent. Reuse the category id in details, or choose another name.',
    },
  },
  category_has_children: {
    status: 409,
    retryable: false,
    messages: {
      'zh-TW': '分類底下仍有子分類，無法刪除。請先將 details 所列的子分類移到其他分類下或刪除後再試。',
      en: 'The category still has child categories and cannot be deleted. Move the children listed in details elsewhere or delete them, then try again.',
    },
  },
  image_in_use: {
    status: 409,
    retryable: false,
    messages: {
      'zh-TW': '圖片仍被文章作為封面或內文引用。請以 PATCH /v1/blog/posts/{id} 替換 details 所列文章中的引用後再刪除。',
      en: 'A post still uses the image as its cover or in its body. Replace the references in the posts listed in details with PATCH /v1/blog/posts/{id}, then delete again.',
    },
  },
  rate_limited: {
    status: 429,
    retryable: true,
    messages: {
      'zh-TW': '本分鐘的請求次數已用完。請等待 Retry-After 秒，並以隨機抖動與次數上限退避重試。',
      en: "This minute's request allowance is used up. Wait Retry-After seconds and retry with random jitter and a cap on attempts.",
    },
  },
  concurrency_limited: {
    status: 429,
    retryable: true,
    messages: {
      'zh-TW': '同時進行中的請求過多。請於 Retry-After 秒後重送，並降低並行數。',
      en: 'Too many requests are in flight. Send it again after Retry-After seconds, and lower your concurrency.',
    },
  },
  quota_exceeded: {
    status: 429,
    retryable: false,
    messages: {
      'zh-TW': '今日的配額已用完。請停止重試，於隔日（台北時間）再繼續；用量見 GET /v1/me 的 quotas。',
      en: "Today's quota is used up. Stop retrying and continue the next day (Taipei time); usage is in quotas of GET /v1/me.",
    },
  },
  tenant_not_certified: {
    status: 503,
    retryable: false,
    messages: {
      'zh-TW': '此商店尚未完成開通，讀寫皆暫停。請聯絡服務營運人員。',
      en: 'This store has not finished onboarding; reads and writes are paused. Contact the service operator.',
    },
  },
  tenant_schema_changed: {
    status: 503,
    retryable: false,
    messages: {
      'zh-TW': '此商店的內容結構已變更，寫入暫停（讀取仍可使用）。請聯絡服務營運人員。',
      en: "This store's content structure has changed; writes are paused (reads still work). Contact the service operator.",
    },
  },
  delivery_not_retryable: {
    status: 409,
    retryable: false,
    messages: {
      'zh-TW': '目前無法重送此 webhook。請依 details 處理：等待仍在排程中的投遞完成，或先將端點的 enabled 設為 true。',
      en: "This webhook delivery cannot be sent again now. Act on details: wait for the delivery still scheduled to finish, or set the endpoint's enabled to true first.",
    },
  },
  cursor_expired: {
    status: 410,
    retryable: false,
    messages: {
      'zh-TW':
        '此游標之後的部分事件已超過保留期限而刪除。請重新讀取資源以重建資料，再從不帶 after 的 GET /v1/events 回傳的 next_cursor 繼續。',
      en: 'Some events after this cursor are past the retention period and were deleted. Read the resources again to rebuild your copy, then continue from the next_cursor of GET /v1/events without after.',
    },
  },
  service_unavailable: {
    status: 503,
    retryable: true,
    messages: {
      'zh-TW': '服務暫時無法使用資料庫。請於 Retry-After 秒後以退避方式重試；寫入請帶同一個 Idempotency-Key 重送。',
      en: 'The service cannot use its database right now. Retry after Retry-After seconds with back-off; resend a write with the same Idempotency-Key.',
    },
  },
  internal_error: {
    status: 500,
    retryable: true,
    messages: {
      'zh-TW': '伺服器發生未預期的錯誤。請以退避方式重試數次；若持續發生，請停止並將 request_id 提供給營運人員。',
      en: 'An unexpected server error occurred. Retry a few times with back-off; if it persists, stop and give the request_id to the operator.',
    },
  },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

/** The message of `code` in `language`. */
export function messageOf(code: ErrorCode, language: MessageLanguage): string {
  return (ERROR_CATALOGUE[code] as ErrorSpec).messages[language];
}
