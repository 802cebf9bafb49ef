export * from './storefront-service.js';
export { ViewCounter, VIEW_FLUSH_INTERVAL_MS } from './view-counter.js';
export { STOREFRONT_CSS } from './storefront-style.js';
export { renderErrorPage, renderNotFoundPage } from './storefront-pages.js';
export { escapeHtml, html, trustedHtml, SafeHtml } from './html-template.js';
export { PreviewLinks, type IssuedPreviewLink } from './preview-links.js';
export * from './preview-link-schemas.js';
