// The pages' only stylesheet. It is inlined (one request per page) and allowed by its hash in
// the Content-Security-Policy, so it must stay a constant: any per-request text breaks the hash.
export const STOREFRONT_CSS = `
:root{color-scheme:light dark;--fg:#1d1d1f;--muted:#6e6e73;--line:#d2d2d7;--bg:#fff;--accent:#0a66c2}
@media (prefers-color-scheme:dark){:root{--fg:#f5f5f7;--muted:#a1a1a6;--line:#424245;--bg:#111;--accent:#6cb4ff}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:17px/1.7 system-ui,-apple-system,"Segoe UI","Noto Sans TC","PingFang TC","Microsoft JhengHei",sans-serif}
a{color:var(--accent)}
.site,main,.foot{max-width:46rem;margin:0 auto;padding:0 1.25rem}
.site{padding-top:1.25rem;padding-bottom:1rem;border-bottom:1px solid var(--line)}
.site a{color:var(--fg);font-weight:600;text-decoration:none}
main{padding-top:2rem;padding-bottom:3rem}
h1{font-size:2rem;line-height:1.25;margin:0 0 .5rem}
.meta{color:var(--muted);font-size:.9rem;margin:0 0 1.5rem}
.categories{display:inline;list-style:none;margin:0;padding:0}
.categories li{display:inline-block;margin:0 .4rem 0 0;padding:0 .5rem;border:1px solid var(--line);border-radius:999px}
.cover{display:block;width:100%;height:auto;border-radius:8px;margin:0 0 1.5rem}
.summary{font-size:1.1rem;color:var(--muted);margin:0 0 1.5rem}
.body img{max-width:100%;height:auto}
.body pre{overflow:auto;padding:1rem;border:1px solid var(--line);border-radius:6px}
.body table{border-collapse:collapse}.body th,.body td{border:1px solid var(--line);padding:.3rem .6rem}
.body blockquote{margin:1rem 0;padding-left:1rem;border-left:3px solid var(--line);color:var(--muted)}
.posts{list-style:none;margin:0;padding:0}
.posts li{padding:1rem 0;border-bottom:1px solid var(--line)}
.posts h2{font-size:1.3rem;margin:0}
.posts p{margin:.25rem 0 0}
.pager{display:flex;justify-content:space-between;margin-top:2rem}
.foot{color:var(--muted);font-size:.8rem;padding-bottom:2rem}
.preview{margin:0;padding:.6rem 1.25rem;background:#fff3cd;color:#664d03;border-bottom:2px solid #e0b000;text-align:center;font-weight:600}
`.trim();
