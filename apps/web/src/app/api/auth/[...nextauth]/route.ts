import NextAuth from 'next-auth';
import { authOptions } from '~/server/auth';

export const dynamic = 'force-dynamic';

/** Dashboard login (docs/security.md): sign-in, sign-out, session and CSRF endpoints of next-auth. */
const handler = NextAuth(authOptions);

export { handler as GET, handler as POST };
