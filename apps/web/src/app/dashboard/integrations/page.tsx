import type { Metadata } from 'next';
import Link from 'next/link';
import { ZIntegrationCategory, ZIntegrationStatus, type Channel } from '@chorus/validators';
import { ConfirmAction } from '~/components/confirm-action';
import { DataTable } from '~/components/data-table';
import { EmptyState } from '~/components/empty-state';
import { utcMinute } from '~/components/format';
import { dashboardCaller, requirePrincipal } from '~/server/dashboard';
import { parseSearch, searchField, type SearchParams } from '~/server/search-params';
import { ChannelBadge } from '../posts/channel-badge';
import { accountChannels } from '../posts/channels';
import { disconnect } from './actions';
import { ConnectButton } from './connect-button';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Integrations' };

const SEARCH = {
  category: searchField.oneOf(ZIntegrationCategory),
  // The catalogue's filter, or how the OAuth return went (`connected`, `error`).
  status: searchField.text(),
  provider: searchField.text(),
  error: searchField.text(),
};
type Search = ReturnType<typeof parseSearch<typeof SEARCH>>;

/** The message of the OAuth return (`?status=…&provider=…&error=…`), from our own callback. */
function returnMessage(search: Search, names: Map<string, string>) {
  const name = names.get(search.provider) ?? 'The platform';
  if (search.status === 'connected') return { ok: true, text: `${name} is connected.` };
  if (search.status === 'error') {
    const reason = search.error.replace(/[^a-z_]/g, '').replaceAll('_', ' ') || 'unknown error';
    return { ok: false, text: `${name} was not connected: ${reason}.` };
  }
  return null;
}

/** A connection's channels (where posts go), each saying when it needs reconnecting. */
function ConnectionChannels({
  channels,
  pages,
  needsReconnect,
}: {
  channels: Channel[];
  pages: string[];
  /** A connection without channels (storage, design) says it here, where a channel would. */
  needsReconnect: boolean;
}) {
  if (channels.length === 0) {
    return (
      <>
        {pages.join(', ') || '—'}
        {needsReconnect && (
          <>
            {' '}
            <span className="badge warn">Needs reconnecting</span>
          </>
        )}
      </>
    );
  }
  return (
    <ul className="plain">
      {channels.map((channel) => (
        <li key={channel.id}>
          <ChannelBadge channel={channel} />{' '}
          <Link href={`/dashboard/integrations/channels/${channel.id}`} className="small">
            Posting slots<span className="sr-only"> of {channel.name}</span>
          </Link>
          {channel.connectionStatus === 'needs_reconnect' && (
            <>
              {' '}
              <span className="badge warn">Needs reconnecting</span>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

export default async function IntegrationsPage(props: { searchParams: Promise<SearchParams> }) {
  const search = parseSearch(await props.searchParams, SEARCH);
  const me = await requirePrincipal('/dashboard/integrations');
  const caller = await dashboardCaller('/dashboard/integrations');
  // Connecting and disconnecting are for admins (the procedures refuse anyone else).
  const admin = me.role === 'admin';
  const { category } = search;
  const status = ZIntegrationStatus.safeParse(search.status).data;
  // One query after another: the embedded database's socket refuses pipelined statements.
  const catalogue = await caller.integrations.list({ category, status });
  const connected = await caller.integrations.connected({});
  const details = await Promise.all(
    catalogue.data.map((entry) => caller.integrations.get({ integrationId: entry.id })),
  );
  const all = await caller.integrations.list({});
  const channelsOf = new Map<string, Channel[]>();
  for (const channel of await accountChannels(caller)) {
    channelsOf.set(channel.integrationId, [
      ...(channelsOf.get(channel.integrationId) ?? []),
      channel,
    ]);
  }
  // How to reconnect each connection that lost its access (its channels say so too).
  const authOf = new Map<string, 'oauth2' | 'api_key'>();
  for (const { integrationId, status: state } of connected.data) {
    if (state === 'needs_reconnect') {
      authOf.set(integrationId, (await caller.integrations.get({ integrationId })).authMethod);
    }
  }
  const names = new Map(all.data.map((entry) => [entry.id, entry.name]));
  const nameOf = (integrationId: string) => names.get(integrationId) ?? integrationId;
  const linked = new Set(connected.data.map((c) => c.integrationId));
  const message = returnMessage(search, names);
  return (
    <>
      <h1>Integrations</h1>
      <p className="lead">
        Connect the platforms this account publishes to and stores in.
        {!admin && ' Only admins can connect or disconnect them.'}
      </p>
      {message && (
        <p
          className={message.ok ? 'notice ok' : 'notice error'}
          role={message.ok ? 'status' : 'alert'}
        >
          {message.text}
        </p>
      )}
      <section className="panel">
        <h2>Connected</h2>
        <DataTable
          label="Connected platforms"
          rows={connected.data}
          rowKey={(c) => c.integrationId}
          empty={
            <EmptyState title="Nothing connected yet">
              Connect a platform from the catalogue below.
            </EmptyState>
          }
          columns={[
            { header: 'Platform', cell: (c) => nameOf(c.integrationId) },
            { header: 'Account', cell: (c) => c.meta.accountName ?? '—' },
            {
              header: 'Channels',
              cell: (c) => (
                <>
                  <ConnectionChannels
                    channels={channelsOf.get(c.integrationId) ?? []}
                    pages={c.meta.pages}
                    needsReconnect={c.status === 'needs_reconnect'}
                  />
                  {admin && authOf.has(c.integrationId) && (
                    <ConnectButton
                      id={c.integrationId}
                      name={nameOf(c.integrationId)}
                      authMethod={authOf.get(c.integrationId) ?? 'api_key'}
                      verb="Reconnect"
                    />
                  )}
                </>
              ),
            },
            { header: 'Connected', cell: (c) => utcMinute(c.connectedAt) },
            { header: 'Last sync', cell: (c) => utcMinute(c.lastSyncAt) },
            admin && {
              header: 'Actions',
              hideHeader: true,
              cell: (c) => {
                const name = nameOf(c.integrationId);
                return (
                  <ConfirmAction
                    button="Disconnect"
                    label={`Disconnect ${name}`}
                    title={`Disconnect ${name}?`}
                    description={`Chorus forgets the ${name} credentials and asks ${name} to revoke them.`}
                    confirm={`Disconnect ${name}`}
                    action={disconnect}
                    values={{ integrationId: c.integrationId, name }}
                  />
                );
              },
            },
          ]}
        />
      </section>
      <section className="panel">
        <h2>Catalogue</h2>
        <form
          className="filters"
          action="/dashboard/integrations"
          aria-label="Filter the catalogue"
        >
          <div className="field">
            <label htmlFor="integration-category">Category</label>
            <select id="integration-category" name="category" defaultValue={category ?? ''}>
              <option value="">All categories</option>
              <option value="social">Social</option>
              <option value="design">Design</option>
              <option value="storage">Storage</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="integration-status">Status</label>
            <select id="integration-status" name="status" defaultValue={status ?? ''}>
              <option value="">Any status</option>
              <option value="active">Available</option>
              <option value="coming_soon">Coming soon</option>
            </select>
          </div>
          <button type="submit">Filter</button>
        </form>
        {details.length === 0 ? (
          <EmptyState title="No platform matches">Try another category or status.</EmptyState>
        ) : (
          <ul className="cards" aria-label="Platforms">
            {details.map((entry) => (
              <li key={entry.id} className="card platform">
                <div className="platform-head">
                  <img src={`/integrations/${entry.id}.svg`} alt="" width={32} height={32} />
                  <h3>{entry.name}</h3>
                </div>
                <p className="muted small">{entry.description}</p>
                <p className="small">
                  <span className="badge">{entry.type}</span>{' '}
                  <span className="badge">
                    {entry.authMethod === 'oauth2' ? 'OAuth' : 'API key'}
                  </span>
                </p>
                {linked.has(entry.id) ? (
                  <span className="badge on">Connected</span>
                ) : entry.status === 'active' ? (
                  admin && (
                    <ConnectButton id={entry.id} name={entry.name} authMethod={entry.authMethod} />
                  )
                ) : (
                  <span className="badge">Coming soon</span>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
