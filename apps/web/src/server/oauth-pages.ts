import type { AuthorizationRequest } from '@chorus/services';
import { SCOPE_DESCRIPTIONS } from '@chorus/validators';

const escape = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** The dashboard's look (globals.css), inlined: these pages are served by route handlers. */
const STYLE = `
:root{color-scheme:light dark;--fg:#1d2330;--muted:#5b6475;--accent:#4f46e5;--bg:#f7f8fb;--card:#fff;--border:#e3e6ee;--danger:#b42318}
@media (prefers-color-scheme:dark){:root{--fg:#e8eaf0;--muted:#9aa3b5;--accent:#8b85ff;--bg:#11131a;--card:#191c25;--border:#2a2f3c;--danger:#f97066}}
*{box-sizing:border-box}body{margin:0;font:16px/1.55 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:520px;margin:0 auto;padding:64px 24px}.panel{padding:28px;border:1px solid var(--border);border-radius:12px;background:var(--card)}
h1{font-size:1.5rem;margin:0 0 8px}p{margin:0 0 16px}.muted{color:var(--muted)}ul{padding-left:20px;margin:0 0 20px}li{margin:6px 0}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em}.actions{display:flex;gap:12px}
button{font:inherit;padding:10px 18px;border-radius:8px;border:1px solid var(--border);background:var(--card);color:var(--fg);cursor:pointer}
button.primary{background:var(--accent);border-color:var(--accent);color:#fff}.error{color:var(--danger)}`;

/**
 * Consent and error pages are never framed (clickjacking), never cached, and send no
 * Referer: their URL carries the request's state.
 */
function page(status: number, title: string, body: string, formAction = "'self'"): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escape(title)} · Chorus</title><style>${STYLE}</style></head><body><main><div class="panel">${body}</div></main></body></html>`;
  return new Response(html, {
    status,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
      'X-Frame-Options': 'DENY',
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

/** An authorize request that cannot be answered to the client: said to the user instead. */
export const oauthErrorPage = (status: number, message: string) =>
  page(
    status,
    'Authorization failed',
    `<h1>This authorization request cannot be completed</h1><p class="error">${escape(message)}</p><p class="muted">Nothing was shared. Go back to the application and try again, or tell its developers.</p>`,
  );

/** The consent page: what the application asks for, and Allow or Deny. */
export function consentPage(opts: {
  request: AuthorizationRequest;
  params: URLSearchParams;
  csrfToken: string;
  userEmail: string;
}): Response {
  const { request, params, csrfToken, userEmail } = opts;
  const hidden = [...params]
    .map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`)
    .join('');
  const scopes = request.scopes
    .map((scope) => `<li><code>${escape(scope)}</code> — ${escape(SCOPE_DESCRIPTIONS[scope])}</li>`)
    .join('');
  const target = new URL(request.redirectUri);
  // Isolated: a name holding right-to-left overrides (U+202E) cannot reorder the words around
  // it, and make the page say something else than what it asks.
  const client = `<bdi>${escape(request.client.name)}</bdi>`;
  const body = `<h1>Authorize ${client}</h1>
<p class="muted">Signed in as <bdi>${escape(userEmail)}</bdi></p>
<p><strong>${client}</strong> asks to act on your behalf with these permissions:</p>
<ul>${scopes}</ul>
<p class="muted">You will be sent back to <code>${escape(target.origin)}</code>.</p>
<form method="post" action="/oauth/authorize">${hidden}<input type="hidden" name="csrf_token" value="${escape(csrfToken)}">
<div class="actions"><button class="primary" type="submit" name="decision" value="allow">Allow</button><button type="submit" name="decision" value="deny">Deny</button></div></form>`;
  // The decision's 303 goes to the client: the form's CSP must allow that origin too.
  return page(200, `Authorize ${request.client.name}`, body, `'self' ${target.origin}`);
}
