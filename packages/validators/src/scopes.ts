import { z } from 'zod';

/** Permission names shared by API keys and OAuth tokens (docs/security.md). */
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

/** What each scope grants, in words for people: the consent page and the API docs. */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  read: 'Read users, integrations and webhooks',
  write: 'Create, update and delete users; connect integrations; manage webhooks',
  'content:read': 'Read posts and media',
  'content:write': 'Create, update and delete posts; upload and delete media',
  'analytics:read': 'Read statistics, events and content performance',
  'analytics:write': 'Record tracked events',
};

export const ROLES = ['admin', 'user'] as const;
export const ZRole = z.enum(ROLES);
export type Role = z.infer<typeof ZRole>;
