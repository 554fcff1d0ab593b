import { getChannelSlots, listChannels, previewNextSlot, putChannelSlots } from '@chorus/services';
import {
  ZChannelIdParam,
  ZChannelList,
  ZChannelSlotsResponse,
  ZListChannelsQuery,
  ZNextSlotQuery,
  ZNextSlotResponse,
  ZPutSlots,
} from '@chorus/validators';
import { ok, okPage } from '../envelope';
import { adminScoped, router, scoped } from '../init';

const tags = ['Channels'];

export const channelsRouter = router({
  list: scoped('content:read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/api/content/channels',
        operationId: 'listChannels',
        tags,
        summary: 'List the channels posts can go to',
        description:
          "The places on connected social networks a post can target: each profile, Page, organisation or account found when the integration was connected, newest first. Connecting again keeps each channel's `id`; disconnecting removes the integration's channels. `limits` are the network's with the channel's own over them (a Mastodon instance's length, an X subscriber's long posts); `connectionStatus` is `needs_reconnect` once the network revoked the grant.",
      },
    })
    .input(ZListChannelsQuery)
    .output(ZChannelList)
    .query(async ({ ctx, input }) =>
      okPage(await listChannels({ db: ctx.db, principal: ctx.principal, query: input })),
    ),

  slots: scoped('content:read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/api/content/channels/{id}/slots',
        operationId: 'getChannelSlots',
        tags,
        summary: "A channel's posting slots",
        description:
          "The channel's weekly posting times in the account's time zone, and the next of them as instants with whether a post already holds each. A post created or updated with `schedule: \"next_slot\"` takes the earliest free slot shared by all its channels. Another account's channel is 404.",
      },
    })
    .input(ZChannelIdParam)
    .output(ZChannelSlotsResponse)
    .query(async ({ ctx, input }) =>
      ok(await getChannelSlots({ db: ctx.db, principal: ctx.principal, id: input.id })),
    ),

  nextSlot: scoped('content:read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/api/content/channels/next-slot',
        operationId: 'previewNextSlot',
        tags,
        summary: 'The slot next_slot would take',
        description:
          'The earliest posting slot, within eight weeks, that all the given channels share and no post of theirs holds (for a `recurrence`, at each of its occurrences too): what a post created or updated with `schedule: "next_slot"` would take now. Nothing is taken: a post scheduled meanwhile may take it first. With no such slot, `at` is null and `reason` says why. Another account\'s channel is 404. With `postId`, the channels of that post\'s locked targets (published, unconfirmed) take no part, as in `next_slot`.',
      },
      // The channels are named in the query, not the path: their 404 is declared here.
      errors: ['resource_not_found'],
    })
    .input(ZNextSlotQuery)
    .output(ZNextSlotResponse)
    .query(async ({ ctx, input }) =>
      ok(await previewNextSlot({ db: ctx.db, principal: ctx.principal, query: input })),
    ),

  putSlots: adminScoped('content:write')
    .meta({
      openapi: {
        method: 'PUT',
        path: '/api/content/channels/{id}/slots',
        operationId: 'putChannelSlots',
        tags,
        summary: "Replace a channel's posting slots",
        description:
          "Admins only (channels are the account's, like its integrations). Each slot is a day of the week and a time (`HH:MM`) in the account's time zone; across a daylight-saving change a slot keeps its local time (a time the change skips comes an hour later; a repeated one is taken once). Posts already scheduled keep their time.",
      },
    })
    .input(ZChannelIdParam.extend(ZPutSlots.shape))
    .output(ZChannelSlotsResponse)
    .mutation(async ({ ctx, input: { id, ...input } }) =>
      ok(await putChannelSlots({ db: ctx.db, principal: ctx.principal, id, input })),
    ),
});
