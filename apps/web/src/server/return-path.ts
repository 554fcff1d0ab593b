/** Where a signed-in user lands when nothing (valid) says otherwise. */
export const DEFAULT_RETURN_PATH = '/dashboard';

/**
 * A `callbackUrl` reduced to a path on this site: it must start with one `/` (not `//` or
 * `/\`, which browsers read as another host), and stay on the origin once resolved.
 * Anything else returns the default, so sign-in can never redirect off-site.
 */
export function safeReturnPath(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) {
    return DEFAULT_RETURN_PATH;
  }
  // Browsers drop tabs and newlines from URLs and read `\` as `/`: refuse both outright.
  if ([...value].some((c) => c.charCodeAt(0) < 0x20 || c === '\\')) return DEFAULT_RETURN_PATH;
  const base = 'http://chorus.invalid';
  const url = new URL(value, base);
  if (url.origin !== base) return DEFAULT_RETURN_PATH;
  return `${url.pathname}${url.search}${url.hash}`;
}

export const signInPath = (returnTo: string) =>
  `/sign-in?callbackUrl=${encodeURIComponent(safeReturnPath(returnTo))}`;
