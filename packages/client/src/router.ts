/**
 * The API's router type, which types every call of the client. In the workspace it is the
 * server's own; the published package replaces this module's declarations with the router's
 * contract printed from it (scripts/build-package.ts), so installing the client needs no
 * server code.
 */
export type { AppRouter } from '@chorus/api';
