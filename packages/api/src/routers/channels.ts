import { listChannels } from '@chorus/services';
import { ZChannelList, ZListChannelsQuery } from '@chorus/validators';
import { okPage } from '../envelope';
import { router, scoped } from '../trpc';

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
});
