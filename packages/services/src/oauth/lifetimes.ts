import { readSetting } from '@chorus/settings';

/** Authorization codes live 10 minutes (docs/security.md; RFC 6749 §4.1.2 advises at most 10). */
export const CODE_TTL_MS = 10 * 60_000;
/** Access tokens live one hour (docs/security.md: `expires_in: 3600`). */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
/**
 * A refresh token lives 30 days unless used; each use rotates it and starts 30 days anew, so a
 * client in use never has to send its user through the authorize step again.
 */
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3600_000;

/**
 * A grant ends this long after consent however often its refresh token rotates, and the user
 * consents again (RFC 9700 §4.14.2 lets a server bound refresh-token lifetime):
 * CHORUS_OAUTH_GRANT_LIFETIME_DAYS, 90 by default. A bad value throws, naming the setting.
 */
export const grantLifetimeMs = (env: Record<string, string | undefined> = process.env): number =>
  readSetting('CHORUS_OAUTH_GRANT_LIFETIME_DAYS', env) * 24 * 3600_000;
