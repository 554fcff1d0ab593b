import type { Metadata } from 'next';
import { NETWORK_NAMES } from '@chorus/validators';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { ZoneNote, ZoneTime } from '~/components/zone-time';
import { dashboardCaller, requirePrincipal } from '~/server/dashboard';
import { mayCall } from '~/server/may-call';
import { accountChannels } from '../../../posts/channels';
import { DAY_LABELS } from './day-labels';
import { SlotEditor } from './slot-editor';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Posting slots' };

type Params = Promise<{ id: string }>;

/** A channel's weekly posting slots: every member reads them, admins change them. */
export default async function ChannelPage(props: { params: Params }) {
  const { id } = await props.params;
  const path = `/dashboard/integrations/channels/${id}`;
  const me = await requirePrincipal(path);
  const caller = await dashboardCaller(path);
  const channel = (await accountChannels(caller)).find((c) => c.id === id);
  if (!channel) notFound();
  const { data } = await caller.channels.slots({ id });
  const free = data.upcoming.filter((slot) => slot.free).slice(0, 5);
  return (
    <>
      <p className="small">
        <Link href="/dashboard/integrations">← Integrations</Link>
      </p>
      <h1>Posting slots</h1>
      <p className="lead">
        {channel.name} ({NETWORK_NAMES[channel.integrationId]}): the weekly times a post can ask for
        with “next free slot”.
      </p>
      <section className="panel" aria-labelledby="slots-title">
        <h2 id="slots-title">Weekly slots</h2>
        {mayCall(me, 'channels.putSlots') ? (
          <SlotEditor channelId={id} slots={data.slots} timeZone={data.timeZone} />
        ) : (
          <>
            {data.slots.length === 0 ? (
              <p className="muted">No slots yet.</p>
            ) : (
              <ul className="plain">
                {data.slots.map((slot) => (
                  <li key={`${slot.day} ${slot.time}`}>
                    {DAY_LABELS[slot.day]} {slot.time}
                  </li>
                ))}
              </ul>
            )}
            <p className="muted">
              Times are in the account’s time zone, {data.timeZone}. Only admins can change them.
            </p>
          </>
        )}
      </section>
      <section className="panel" aria-labelledby="free-title">
        <h2 id="free-title">Next free slots</h2>
        {free.length === 0 ? (
          <p className="muted">None in the next four weeks.</p>
        ) : (
          <ul className="plain">
            {free.map((slot) => (
              <li key={slot.at}>
                <ZoneTime iso={slot.at} zone={data.timeZone} />
              </li>
            ))}
          </ul>
        )}
        <p className="muted small">
          <ZoneNote zone={data.timeZone} prefix="In the account’s time zone" />
        </p>
      </section>
    </>
  );
}
