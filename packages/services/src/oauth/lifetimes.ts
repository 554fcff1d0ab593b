/** Authorization codes live 10 minutes (decisions §9; RFC 6749 §4.1.2 advises at most 10). */
export const CODE_TTL_MS = 10 * 60_000;
/** Access tokens live one hour (decisions §9: `expires_in: 3600`). */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
/**
 * A refresh token lives 30 days unless used; each use rotates it and starts 30 days anew, so a
 * client in use never has to send its user through the authorize step again.
 */
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3600_000;
