import { z } from 'zod';
import { singleLine } from './text';
import { paginationQuery, ZTimestamp } from './common';
import { ZRole } from './scopes';

const ZName = singleLine(z.string().trim().min(1).max(200)).meta({ example: 'Ada Lovelace' });
/** The longest email and password anyone can have: a sign-in with longer ones is refused unread. */
export const MAX_EMAIL_LENGTH = 320;
export const MAX_PASSWORD_LENGTH = 1024;

const ZEmail = z.email().max(MAX_EMAIL_LENGTH).meta({ example: 'ada@acme.example' });
const ZPassword = z
  .string()
  .min(8, 'Password must be at least 8 characters.')
  .max(MAX_PASSWORD_LENGTH)
  .meta({ example: 'correct horse battery staple' });

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

export const ZListUsersQuery = paginationQuery(50)
  .extend({
    // Descriptions sit inside `.optional()`, where the OpenAPI generator reads them.
    role: ZRole.meta({ description: 'Only users with this role.' }).optional(),
    q: z
      .string()
      .trim()
      .max(200)
      .meta({
        description:
          'Only users whose name or email contains this text (any case). The total is then counted, a pass over the account’s users.',
      })
      .optional(),
    startingAfter: z
      .string()
      .min(1)
      .max(100)
      .meta({
        description:
          "A user id of the account: the page is the `limit` users after that one in the list's order (newest first), at the same cost however deep, and the answer carries `meta.pagination.nextCursor`. Start from the last id of any page. Not with `page` beyond 1.",
        example: 'usr_01JD2Y8Q9Z3M4N5P6R7S8T9V0W',
      })
      .optional(),
  })
  // A cursor names the position itself: a page number beside it would say a second one.
  .refine((query) => query.startingAfter === undefined || query.page === 1, {
    path: ['page'],
    message: 'Send either page or startingAfter, not both.',
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
      "The user's current password: required with `password` when a bearer token changes its own user's password (and, in the dashboard, to change one's own password or email).",
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
    meta: z
      .object({
        pagination: z.object({
          nextCursor: z.string().nullable().meta({
            description:
              '`startingAfter` for the next page: the id of the last user of this one, or null when no user follows.',
          }),
        }),
      })
      .optional()
      .meta({ description: 'Only when the request sends `startingAfter`.' }),
  })
  .meta({ id: 'UserList' });

export type CreateUserInput = z.infer<typeof ZCreateUser>;
export type UpdateUserInput = z.infer<typeof ZUpdateUser>;
export type User = z.infer<typeof ZUser>;
export type UserSummary = z.infer<typeof ZUserSummary>;
