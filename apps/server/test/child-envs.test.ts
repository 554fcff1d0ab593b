import { parseSettings } from '@chorus/settings';
import { describe, expect, it } from 'vitest';
import { apiEnv, webEnv } from '../src/child-envs';

const env = {
  PATH: '/usr/bin',
  PORT: '4000',
  DATABASE_URL: 'postgres://app:secret@db:5432/chorus',
  NEXTAUTH_SECRET: 'session secret',
  CHORUS_PUBLIC_URL: 'https://chorus.example.com/app',
  CHORUS_CORS_ORIGINS: 'https://app.example.com',
  ADMIN_PASSWORD: 'first admin password',
  CHORUS_INTEGRATION_X_CLIENT_SECRET: 'x secret',
  AWS_SECRET_ACCESS_KEY: 'nothing of ours',
};
const given = { env, settings: parseSettings(env), nodeEnv: 'production' } as const;

describe("the children's environments", () => {
  it('give the HTTP server its settings, and no variable it does not read', () => {
    const api = apiEnv(given);
    expect(api).toMatchObject({
      PATH: '/usr/bin',
      PORT: '4000',
      NODE_ENV: 'production',
      DATABASE_URL: env.DATABASE_URL,
      NEXTAUTH_SECRET: env.NEXTAUTH_SECRET,
      CHORUS_CORS_ORIGINS: env.CHORUS_CORS_ORIGINS,
      CHORUS_INTEGRATION_X_CLIENT_SECRET: 'x secret',
    });
    expect(api.ADMIN_PASSWORD).toBeUndefined();
    expect(api.AWS_SECRET_ACCESS_KEY).toBeUndefined();
    expect(api.NEXTAUTH_URL).toBeUndefined();
  });

  it("give Next next-auth's URL from the public origin, and not the port", () => {
    const web = webEnv(given);
    expect(web.NEXTAUTH_URL).toBe('https://chorus.example.com');
    expect(web.AUTH_TRUST_HOST).toBeUndefined();
    expect(web.PORT).toBeUndefined();
    expect(web.ADMIN_PASSWORD).toBeUndefined();
    const local = parseSettings({});
    expect(webEnv({ ...given, env: {}, settings: local }).AUTH_TRUST_HOST).toBe('true');
  });
});
