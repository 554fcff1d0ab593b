import { randomBytes } from 'node:crypto';
import { clientIp } from '@chorus/api';
import { endSession, LoginError, verifyDashboardLogin } from '@chorus/services';
import type { Role } from '@chorus/validators';
import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { getDatabase } from './database';
import { safeReturnPath } from './return-path';

/**
 * The secret that signs and encrypts dashboard sessions. `npm start` provides one (generated
 * into the data directory for the embedded default, required with DATABASE_URL).
 */
export function authSecret(): string {
  const secret = process.env.NEXTAUTH_SECRET || process.env.AUTH_SECRET;
  if (!secret) throw new Error('NEXTAUTH_SECRET is not set: start the app with `npm start`.');
  return secret;
}

/** The client's address from next-auth's plain header record (see `clientIp`). */
function requestIp(record: Record<string, unknown> | undefined): string {
  const headers = new Headers();
  for (const [name, value] of Object.entries(record ?? {})) {
    if (typeof value === 'string') headers.set(name, value);
  }
  return clientIp(new Request('http://localhost/', { headers }));
}

/** Dashboard sessions last a working day; signing in again is cheap, a stolen cookie is not. */
export const SESSION_MAX_AGE_SECONDS = 12 * 3600;

declare module 'next-auth' {
  interface Session {
    user: { id: string; accountId: string; role: Role; name: string; email: string };
  }
  interface User {
    accountId: string;
    role: Role;
    sessionGeneration: number;
  }
}

declare module 'next-auth/jwt' {
  interface JWT {
    accountId?: string;
    role?: Role;
    /** Names this session: the consent page's CSRF token is bound to it. */
    sid?: string;
    /** The user's session generation at sign-in: a raised one ends this session. */
    gen?: number;
  }
}

/**
 * next-auth (v4) with the Credentials provider and JWT sessions: email and password, then a
 * TOTP code for users with two-factor authentication. A refusal's reason reaches the sign-in
 * page as the error (`code_required` asks for the code step).
 */
export const authOptions: NextAuthOptions = {
  session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_SECONDS },
  pages: { signIn: '/sign-in', error: '/sign-in' },
  providers: [
    CredentialsProvider({
      name: 'Email and password',
      credentials: {
        email: { label: 'Email', type: 'email' },
        password: { label: 'Password', type: 'password' },
        code: { label: 'Authentication code', type: 'text' },
      },
      async authorize(credentials, req) {
        const email = credentials?.email ?? '';
        const password = credentials?.password ?? '';
        if (!email || !password) throw new Error('invalid_credentials');
        const { db } = await getDatabase();
        try {
          const user = await verifyDashboardLogin({
            db,
            email,
            password,
            code: credentials?.code || undefined,
            clientIp: requestIp(req.headers),
          });
          return {
            id: user.userId,
            name: user.name,
            email: user.email,
            accountId: user.accountId,
            role: user.role,
            sessionGeneration: user.sessionGeneration,
          };
        } catch (error) {
          // `throttled:<epoch seconds>` lets the page say when to retry.
          if (error instanceof LoginError && error.retryAt) {
            throw new Error(`${error.reason}:${Math.ceil(error.retryAt.getTime() / 1000)}`);
          }
          if (error instanceof LoginError) throw new Error(error.reason);
          throw error;
        }
      },
    }),
  ],
  events: {
    // A JWT cannot be recalled: signing out records its id as ended, so the cookie (and any
    // copy of it) stops working on the server at once.
    async signOut({ token }) {
      if (!token.sub || !token.sid) return;
      const { db } = await getDatabase();
      const expiresAt = new Date(
        typeof token.exp === 'number'
          ? token.exp * 1000
          : Date.now() + SESSION_MAX_AGE_SECONDS * 1000,
      );
      await endSession({ db, userId: token.sub, sessionId: token.sid, expiresAt });
    },
  },
  callbacks: {
    jwt({ token, user }) {
      if (user) {
        token.sub = user.id;
        token.accountId = user.accountId;
        token.role = user.role;
        token.sid = randomBytes(16).toString('base64url');
        token.gen = user.sessionGeneration;
      }
      return token;
    },
    session({ session, token }) {
      session.user = {
        id: token.sub ?? '',
        accountId: token.accountId ?? '',
        role: token.role ?? 'user',
        name: token.name ?? '',
        email: token.email ?? '',
      };
      return session;
    },
    // No open redirect: only paths on this site, whatever a callbackUrl says.
    redirect({ url, baseUrl }) {
      // Same origin (compared parsed: `https://a.com.evil.example` starts with `https://a.com`).
      if (URL.canParse(url) && new URL(url).origin === new URL(baseUrl).origin) {
        const { pathname, search, hash } = new URL(url);
        return `${baseUrl}${safeReturnPath(`${pathname}${search}${hash}`)}`;
      }
      return `${baseUrl}${safeReturnPath(url)}`;
    },
  },
};
