/**
 * The secret that signs and encrypts dashboard sessions. `npm start` provides one (generated
 * into the data directory for the embedded default, required with DATABASE_URL). Kept apart
 * from the next-auth options, so the tRPC door can read sessions without loading them.
 */
export function authSecret(): string {
  const secret = process.env.NEXTAUTH_SECRET || process.env.AUTH_SECRET;
  if (!secret) throw new Error('NEXTAUTH_SECRET is not set: start the app with `npm start`.');
  return secret;
}
