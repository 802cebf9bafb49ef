// The one place where an error code meets its HTTP status, its `retryable` flag and its
// zh-TW message (docs/api-behaviour.md, "Requests and responses": one status and one `retryable` per code).

export interface ErrorSpec {
  status: number;
  retryable: boolean;
  /** Traditional Chinese; says what happened and the next step. Wording may change. */
  message: string;
}

export const ERROR_CATALOGUE = {
  unauthorized: {
    status: 401,
    retryable: false,
    message: '金鑰缺少或無效。請確認 Authorization 標頭為「Bearer <API_KEY>」格式，且金鑰未過期或撤銷。',
  },
  insufficient_scope: {
    status: 403,
    retryable: false,
    message: '此金鑰缺少所需的權限範圍。請向營運人員申請具備 details 所列範圍的金鑰。',
  },
  not_found: {
    status: 404,
    retryable: false,
    message: '找不到指定的資源。請確認路徑與 ID 是否正確。',
  },
  feature_unavailable: {
    status: 404,
    retryable: false,
    message: '此商店尚未啟用這項功能。請先讀取 GET /v1/me 的 features 再呼叫。',
  },
  validation_failed: {
    status: 422,
    retryable: false,
    message: '請求欄位驗證失敗。請依 details 逐一修正欄位後再送出。',
  },
  title_charset_unsupported: {
    status: 422,
    retryable: false,
    message:
      '標題含有此商店無法儲存的字元。請移除 details 所列字元；可先參考 GET /v1/me 的 limits.title_allows_emoji。',
  },
  cover_image_not_owned: {
    status: 422,
    retryable: false,
    message: '封面圖片網址不屬於此商店。請以 POST /v1/media/images 上傳，並原樣使用回傳的 url。',
  },
  content_too_large: {
    status: 413,
    retryable: false,
    message: '內容超過此商店的上限。請縮短或拆分 body_html；上限見 GET /v1/me 的 limits.body_max_bytes。',
  },
  image_too_large: {
    status: 413,
    retryable: false,
    message: '圖片檔案或像素超過上限。請在本機縮小後再上傳；上限見 GET /v1/me 的 limits。',
  },
  unsupported_media_type: {
    status: 415,
    retryable: false,
    message: '不支援的圖片格式。請轉換為 limits.image_formats 所列格式後再上傳。',
  },
  idempotency_key_reused: {
    status: 409,
    retryable: false,
    message: '此 Idempotency-Key 先前已用於不同內容。請送出完全相同的內容，或改用新的金鑰。',
  },
  idempotency_in_progress: {
    status: 409,
    retryable: true,
    message: '使用此 Idempotency-Key 的第一個請求仍在處理中。請於 Retry-After 秒後原樣重送。',
  },
  duplicate_content: {
    status: 409,
    retryable: false,
    message: '十分鐘內已建立標題與內文相同的文章。請改用 details 所列的文章。',
  },
  confirmation_required: {
    status: 409,
    retryable: false,
    message: '刪除需要第二步確認。請在有效期限內帶著 details 中的 confirmation_token 再送一次刪除請求。',
  },
  post_is_published: {
    status: 409,
    retryable: false,
    message: '已發佈或已排程的文章不能刪除。請先取消發佈，再刪除。',
  },
  post_has_product_links: {
    status: 409,
    retryable: false,
    message: '文章仍連結到商品。請由人員在商店後台移除連結後再刪除。',
  },
  precondition_failed: {
    status: 412,
    retryable: false,
    message:
      '文章在您取得 ETag 之後已被修改，本次未寫入任何內容。請重新讀取文章（GET）取得最新內容與 ETag，確認變更後帶新的 If-Match 再送出。',
  },
  category_name_conflict: {
    status: 409,
    retryable: false,
    message: '同一父分類下已有相同名稱的分類。請沿用 details 中的分類 ID，或改用其他名稱。',
  },
  category_has_children: {
    status: 409,
    retryable: false,
    message: '分類底下仍有子分類，無法刪除。請先將 details 所列的子分類移到其他分類下或刪除後再試。',
  },
  image_in_use: {
    status: 409,
    retryable: false,
    message: '圖片仍被文章作為封面或內文引用。請以 PATCH /v1/blog/posts/{id} 替換 details 所列文章中的引用後再刪除。',
  },
  rate_limited: {
    status: 429,
    retryable: true,
    message: '本分鐘的請求次數已用完。請等待 Retry-After 秒，並以隨機抖動與次數上限退避重試。',
  },
  concurrency_limited: {
    status: 429,
    retryable: true,
    message: '同時進行中的請求過多。請於 Retry-After 秒後重送，並降低並行數。',
  },
  quota_exceeded: {
    status: 429,
    retryable: false,
    message: '今日的配額已用完。請停止重試，於隔日（台北時間）再繼續；用量見 GET /v1/me 的 quotas。',
  },
  tenant_not_certified: {
    status: 503,
    retryable: false,
    message: '此商店尚未完成開通，讀寫皆暫停。請聯絡服務營運人員。',
  },
  tenant_schema_changed: {
    status: 503,
    retryable: false,
    message: '此商店的內容結構已變更，寫入暫停（讀取仍可使用）。請聯絡服務營運人員。',
  },
  delivery_not_retryable: {
    status: 409,
    retryable: false,
    message: '目前無法重送此 webhook。請依 details 處理：等待仍在排程中的投遞完成，或先將端點的 enabled 設為 true。',
  },
  cursor_expired: {
    status: 410,
    retryable: false,
    message:
      '此游標之後的部分事件已超過保留期限而刪除。請重新讀取資源以重建資料，再從不帶 after 的 GET /v1/events 回傳的 next_cursor 繼續。',
  },
  service_unavailable: {
    status: 503,
    retryable: true,
    message: '服務暫時無法使用資料庫。請於 Retry-After 秒後以退避方式重試；寫入請帶同一個 Idempotency-Key 重送。',
  },
  internal_error: {
    status: 500,
    retryable: true,
    message: '伺服器發生未預期的錯誤。請以退避方式重試數次；若持續發生，請停止並將 request_id 提供給營運人員。',
  },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];
