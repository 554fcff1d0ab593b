import { z } from 'zod';
import { paginationQuery, ZTimestamp } from './common';
import { ZRole } from './scopes';

const ZName = z.string().trim().min(1).max(200);
const ZEmail = z.email().max(320);
const ZPassword = z.string().min(8, 'Password must be at least 8 characters.').max(1024);

export const ZUserSummary = z
  .object({
    id: z.string().meta({ example: 'usr_01JD2Y8Q9Z3M4N5P6R7S8T9V0W' }),
    name: z.string().meta({ example: 'Ada Lovelace' }),
    email: z.string().meta({ example: 'ada@example.com' }),
    role: ZRole,
    createdAt: ZTimestamp,
  })
  .meta({ id: 'UserSummary' });

export const ZUserSettings = z.object({
  notifications: z.boolean(),
  twoFactorAuth: z.boolean(),
});

export const ZUser = ZUserSummary.extend({
  lastLogin: ZTimestamp.nullable().meta({ description: 'null until the first login.' }),
  settings: ZUserSettings,
}).meta({ id: 'User' });

export const ZListUsersQuery = paginationQuery(50).extend({
  role: ZRole.optional().meta({ description: 'Only users with this role.' }),
  q: z
    .string()
    .trim()
    .max(200)
    .optional()
    .meta({ description: 'Only users whose name or email contains this text (any case).' }),
});

export const ZUserIdParam = z.object({ userId: z.string() });

export const ZCreateUser = z.object({
  name: ZName,
  email: ZEmail,
  password: ZPassword,
  role: ZRole.default('user'),
});

export const ZUpdateUser = z.object({
  name: ZName.optional(),
  email: ZEmail.optional(),
  password: ZPassword.optional(),
  currentPassword: z.string().max(1024).optional().meta({
    description:
      "The user's current password: required with `password` when a bearer token changes its own user's password.",
  }),
  role: ZRole.optional(),
  settings: ZUserSettings.partial().optional(),
});

export const ZUserList = z
  .object({
    data: z.array(ZUserSummary),
    pagination: z.object({
      total: z.number().int(),
      page: z.number().int(),
      limit: z.number().int(),
      pages: z.number().int(),
    }),
  })
  .meta({ id: 'UserList' });

export type CreateUserInput = z.infer<typeof ZCreateUser>;
export type UpdateUserInput = z.infer<typeof ZUpdateUser>;
export type User = z.infer<typeof ZUser>;
export type UserSummary = z.infer<typeof ZUserSummary>;
