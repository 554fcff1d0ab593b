import type { NextConfig } from 'next';

const config: NextConfig = {
  // Workspace packages ship TypeScript source.
  transpilePackages: [
    '@chorus/api',
    '@chorus/auth',
    '@chorus/db',
    '@chorus/services',
    '@chorus/settings',
    '@chorus/storage',
    '@chorus/validators',
  ],
  // Native and WASM modules load from node_modules at run time rather than being bundled.
  serverExternalPackages: [
    '@electric-sql/pglite',
    '@electric-sql/pglite-socket',
    '@node-rs/argon2',
    'postgres',
  ],
  poweredByHeader: false,
  // Browsers ask every origin for /favicon.ico, also from pages that name no icon (the API
  // docs, the OAuth pages): the app's icon (src/app/icon.svg) answers it.
  async rewrites() {
    return [{ source: '/favicon.ico', destination: '/icon.svg' }];
  },
  // Pages' security headers (CSP with a nonce, framing, HSTS) are set per request in
  // src/proxy.ts; these hold for every answer, static files included.
  async headers() {
    return [
      {
        source: '/:path*',
        headers: [
          { key: 'X-Content-Type-Options', value: 'nosniff' },
          { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
        ],
      },
      // The OAuth pages carry the authorization request in their URL: no Referer (src/proxy.ts).
      // The later rule wins for the same header.
      { source: '/oauth/:path*', headers: [{ key: 'Referrer-Policy', value: 'no-referrer' }] },
    ];
  },
};

export default config;
