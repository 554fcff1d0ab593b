import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A third-party OAuth 2.0 provider on loopback, strict where a real one is: it checks the
 * client, the redirect URI, single use of codes and the PKCE verifier (RFC 7636 S256).
 */
export interface StandInOptions {
  clientId: string;
  clientSecret: string;
  profile: Record<string, unknown>;
}

interface IssuedCode {
  redirectUri: string;
  challenge: string;
  scope: string;
  used: boolean;
}

const b64url = (buffer: Buffer) => buffer.toString('base64url');

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, status: number, body?: unknown, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body === undefined ? '' : JSON.stringify(body));
}

export async function startStandInProvider(options: StandInOptions) {
  const codes = new Map<string, IssuedCode>();
  const accessTokens = new Set<string>();
  const state = {
    /** When set, the authorize step refuses with this RFC 6749 error code. */
    denyWith: undefined as string | undefined,
    /** When set, the token endpoint refuses with this error code. */
    tokenErrorWith: undefined as string | undefined,
    tokenRequests: 0,
    /** Client authentication seen at the token endpoint. */
    clientAuth: [] as ('basic' | 'body')[],
    revoked: [] as { token: string; via: 'bearer' | 'form' }[],
    /** Every access and refresh token handed out, so tests can look for them in storage. */
    issuedTokens: [] as string[],
    /** What `GET /metrics` answers to a valid token: per post and day, running figures. */
    metrics: [] as unknown[],
    /** When set, `GET /metrics` answers this status. */
    metricsFailWith: undefined as number | undefined,
    /** The `from`/`to` of every metrics request. */
    metricsRequests: [] as { from: string | null; to: string | null }[],
  };

  function clientOf(req: IncomingMessage, form: URLSearchParams) {
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
    if (basic?.[1]) {
      const [id = '', secret = ''] = Buffer.from(basic[1], 'base64').toString().split(':');
      return {
        id: decodeURIComponent(id),
        secret: decodeURIComponent(secret),
        via: 'basic' as const,
      };
    }
    return {
      id: form.get('client_id') ?? '',
      secret: form.get('client_secret') ?? '',
      via: 'body' as const,
    };
  }

  function authorize(url: URL, res: ServerResponse) {
    const q = url.searchParams;
    const redirectUri = q.get('redirect_uri');
    if (q.get('client_id') !== options.clientId || !redirectUri) {
      return send(res, 400, { error: 'invalid_client' }); // shown, never redirected (RFC 6749 §4.1.2.1)
    }
    const back = new URL(redirectUri);
    back.searchParams.set('state', q.get('state') ?? '');
    if (state.denyWith) back.searchParams.set('error', state.denyWith);
    else if (q.get('response_type') !== 'code' || q.get('code_challenge_method') !== 'S256') {
      back.searchParams.set('error', 'invalid_request');
    } else {
      const code = b64url(randomBytes(16));
      codes.set(code, {
        redirectUri,
        challenge: q.get('code_challenge') ?? '',
        scope: q.get('scope') ?? '',
        used: false,
      });
      back.searchParams.set('code', code);
    }
    res.writeHead(302, { location: back.toString() });
    res.end();
  }

  async function token(req: IncomingMessage, res: ServerResponse) {
    state.tokenRequests += 1;
    const form = new URLSearchParams(await readBody(req));
    const client = clientOf(req, form);
    state.clientAuth.push(client.via);
    if (client.id !== options.clientId || client.secret !== options.clientSecret) {
      return send(res, 401, { error: 'invalid_client' });
    }
    if (state.tokenErrorWith) return send(res, 400, { error: state.tokenErrorWith });
    const issued = codes.get(form.get('code') ?? '');
    const verifier = form.get('code_verifier') ?? '';
    const challenge = b64url(createHash('sha256').update(verifier).digest());
    if (
      form.get('grant_type') !== 'authorization_code' ||
      !issued ||
      issued.used ||
      issued.redirectUri !== form.get('redirect_uri') ||
      issued.challenge !== challenge
    ) {
      return send(res, 400, { error: 'invalid_grant' });
    }
    issued.used = true;
    const accessToken = `at_${b64url(randomBytes(18))}`;
    const refreshToken = `rt_${b64url(randomBytes(18))}`;
    accessTokens.add(accessToken);
    state.issuedTokens.push(accessToken, refreshToken);
    send(res, 200, {
      access_token: accessToken,
      refresh_token: refreshToken,
      token_type: 'Bearer',
      expires_in: 3600,
      scope: issued.scope,
    });
  }

  function bearer(req: IncomingMessage) {
    return /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  }

  async function revoke(req: IncomingMessage, res: ServerResponse) {
    const token = bearer(req);
    if (token) state.revoked.push({ token, via: 'bearer' });
    else {
      const form = new URLSearchParams(await readBody(req));
      state.revoked.push({ token: form.get('token') ?? '', via: 'form' });
    }
    send(res, 200, {});
  }

  /** A fresh token the provider accepts, recorded among those handed out. */
  function issue(prefix: string) {
    const token = `${prefix}_${b64url(randomBytes(18))}`;
    accessTokens.add(token);
    state.issuedTokens.push(token);
    return token;
  }

  /**
   * Meta's long-lived token exchange (`GET …/oauth/access_token?grant_type=fb_exchange_token`),
   * which the Facebook provider calls at connect before listing the Pages.
   */
  function exchangeToken(url: URL, res: ServerResponse) {
    const q = url.searchParams;
    if (
      q.get('client_id') !== options.clientId ||
      q.get('client_secret') !== options.clientSecret
    ) {
      return send(res, 400, {
        error: { message: 'Invalid client', type: 'OAuthException', code: 1 },
      });
    }
    if (
      q.get('grant_type') !== 'fb_exchange_token' ||
      !accessTokens.has(q.get('fb_exchange_token') ?? '')
    ) {
      return send(res, 400, {
        error: { message: 'Invalid token', type: 'OAuthException', code: 190 },
      });
    }
    send(res, 200, { access_token: issue('ll'), token_type: 'bearer', expires_in: 5_184_000 });
  }

  /** The Graph API's `me/accounts`: the profile's `accounts.data` as Pages with their tokens. */
  const pageTokens = new Map<string, string>();
  function pagesOf() {
    const accounts = (options.profile.accounts as { data?: { name: string }[] } | undefined)?.data;
    return (accounts ?? []).map((page, index) => {
      const id = String(100_000 + index);
      if (!pageTokens.has(id)) pageTokens.set(id, issue('pt'));
      return { id, name: page.name, access_token: pageTokens.get(id) };
    });
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const route = `${req.method} ${url.pathname}`;
    const handle = async () => {
      if (route === 'GET /authorize') return authorize(url, res);
      if (route === 'POST /token') return token(req, res);
      if (route === 'GET /token') return exchangeToken(url, res);
      if (route === 'GET /me/accounts') {
        const token = bearer(req);
        return token && accessTokens.has(token)
          ? send(res, 200, { data: pagesOf() })
          : send(res, 401, {
              error: { message: 'Invalid token', type: 'OAuthException', code: 190 },
            });
      }
      if (route === 'GET /me') {
        const token = bearer(req);
        return token && accessTokens.has(token)
          ? send(res, 200, options.profile)
          : send(res, 401, { error: 'invalid_token' });
      }
      if (route === 'GET /metrics') {
        const token = bearer(req);
        if (!token || !accessTokens.has(token)) return send(res, 401, { error: 'invalid_token' });
        if (state.metricsFailWith)
          return send(res, state.metricsFailWith, { error: 'unavailable' });
        state.metricsRequests.push({
          from: url.searchParams.get('from'),
          to: url.searchParams.get('to'),
        });
        return send(res, 200, { data: state.metrics });
      }
      if (url.pathname === '/revoke') return revoke(req, res);
      send(res, 404, { error: 'not_found' });
    };
    handle().catch(() => send(res, 500, { error: 'server_error' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;

  return {
    base,
    state,
    /** The environment that points an integration at this provider. */
    env: (prefix: string) => ({
      [`${prefix}CLIENT_ID`]: options.clientId,
      [`${prefix}CLIENT_SECRET`]: options.clientSecret,
      [`${prefix}AUTHORIZE_URL`]: `${base}/authorize`,
      [`${prefix}TOKEN_URL`]: `${base}/token`,
      [`${prefix}PROFILE_URL`]: `${base}/me`,
      [`${prefix}REVOKE_URL`]: `${base}/revoke`,
      [`${prefix}METRICS_URL`]: `${base}/metrics`,
      // Where a publishing network's provider calls (docs/publishing.md): the Graph routes above.
      [`${prefix}API_URL`]: base,
    }),
    reset() {
      pageTokens.clear();
      state.denyWith = undefined;
      state.tokenErrorWith = undefined;
      state.tokenRequests = 0;
      state.clientAuth.length = 0;
      state.revoked.length = 0;
      state.issuedTokens.length = 0;
      state.metrics.length = 0;
      state.metricsFailWith = undefined;
      state.metricsRequests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type StandInProvider = Awaited<ReturnType<typeof startStandInProvider>>;
