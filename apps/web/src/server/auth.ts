import { randomBytes } from 'node:crypto';
import { LoginError, verifyDashboardLogin } from '@chorus/services';
import type { Role } from '@chorus/validators';
import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { getDatabase } from './database';
import { safeReturnPath } from './return-path';

/** Dashboard sessions last a working day; signing in again is cheap, a stolen cookie is not. */
export const SESSION_MAX_AGE_SECONDS = 12 * 3600;

declare module 'next-auth' {
  interface Session {
    user: { id: string; accountId: string; role: Role; name: string; email: string };
  }
  interface User {
    accountId: string;
    role: Role;
  }
}

declare module 'next-auth/jwt' {
  interface JWT {
    accountId?: string;
    role?: Role;
    /** Names this session: the consent page's CSRF token is bound to it. */
    sid?: string;
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
      async authorize(credentials) {
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
          });
          return {
            id: user.userId,
            name: user.name,
            email: user.email,
            accountId: user.accountId,
            role: user.role,
          };
        } catch (error) {
          if (error instanceof LoginError) throw new Error(error.reason);
          throw error;
        }
      },
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user) {
        token.sub = user.id;
        token.accountId = user.accountId;
        token.role = user.role;
        token.sid = randomBytes(16).toString('base64url');
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
