import { z } from 'zod';

/** Permission names shared by API keys and OAuth tokens (decisions §2). */
export const SCOPES = [
  'read',
  'write',
  'content:read',
  'content:write',
  'analytics:read',
  'analytics:write',
] as const;

export const ZScope = z.enum(SCOPES);
export type Scope = z.infer<typeof ZScope>;

export const ROLES = ['admin', 'user'] as const;
export const ZRole = z.enum(ROLES);
export type Role = z.infer<typeof ZRole>;
