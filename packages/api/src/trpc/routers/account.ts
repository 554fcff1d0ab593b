import { getAccountSettings, updateAccountSettings } from '@chorus/services';
import { ZAccountSettingsResponse, ZUpdateAccountSettings } from '@chorus/validators';
import { z } from 'zod';
import { ok } from '../envelope';
import { adminScoped, router, scoped } from '../init';

const tags = ['Account'];

/**
 * The account's settings (docs/settings-and-import-export.md). Reading them is `read`, like the team directory and
 * the connected integrations: every member needs the time zone. Changing them is an admin's,
 * with `write`, like managing users.
 */
export const accountRouter = router({
  settings: scoped('read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/api/account/settings',
        operationId: 'getAccountSettings',
        tags,
        summary: "Get the account's settings",
        description:
          'Every member may read them (scope `read`). `timeZone` is the IANA zone of posting slots, recurrence and the dashboard calendar.',
      },
    })
    .input(z.object({}))
    .output(ZAccountSettingsResponse)
    .query(async ({ ctx }) =>
      ok(await getAccountSettings({ db: ctx.db, principal: ctx.principal })),
    ),

  updateSettings: adminScoped('write')
    .meta({
      openapi: {
        method: 'PUT',
        path: '/api/account/settings',
        operationId: 'updateAccountSettings',
        tags,
        summary: "Change the account's settings",
        description:
          'Admins only (scope `write`). Partial: fields left out are kept. `timeZone` must be an IANA name the server knows, spelled exactly (`Europe/Berlin`, `UTC`); anything else is 400 `validation_error` naming `timeZone`.',
      },
    })
    .input(ZUpdateAccountSettings)
    .output(ZAccountSettingsResponse)
    .mutation(async ({ ctx, input }) =>
      ok(await updateAccountSettings({ db: ctx.db, principal: ctx.principal, input })),
    ),
});
