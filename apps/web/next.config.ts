import type { NextConfig } from 'next';

const config: NextConfig = {
  // Workspace packages ship TypeScript source.
  transpilePackages: [
    '@chorus/api',
    '@chorus/auth',
    '@chorus/db',
    '@chorus/services',
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
  // No page of ours is meant to be framed (clickjacking). /oauth/ answers set their own,
  // stricter policy (the consent page's), which this one would replace.
  async headers() {
    return [
      {
        source: '/:path((?!oauth/).*)',
        headers: [
          { key: 'X-Frame-Options', value: 'DENY' },
          { key: 'Content-Security-Policy', value: "frame-ancestors 'none'" },
        ],
      },
    ];
  },
};

export default config;
