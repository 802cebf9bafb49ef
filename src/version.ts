/** The API version (docs/api-behaviour.md): a date, sent in X-Svc-Api-Version and /v1/me. */
export const API_VERSION_DATE = '2026-09-14';
