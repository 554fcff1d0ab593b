import type { NextConfig } from 'next';

const config: NextConfig = {
  // Workspace packages ship TypeScript source.
  transpilePackages: [
    '@chorus/api',
    '@chorus/auth',
    '@chorus/db',
    '@chorus/services',
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
};

export default config;
