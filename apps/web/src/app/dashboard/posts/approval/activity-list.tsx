import type { Activity, ActivityAction, Channel } from '@chorus/validators';
import { ZoneTime } from '~/components/zone-time';
import type { DashboardCaller } from '~/server/dashboard';
import { channelInWords } from '../channel-badge';

const SAID: Record<ActivityAction, string> = {
  created: 'created the post',
  edited: 'edited',
  submitted: 'submitted it for approval',
  withdrawn: 'withdrew it from approval',
  approved: 'approved it',
  rejected: 'rejected it',
  scheduled: 'scheduled it',
  unscheduled: 'moved it back to draft',
  publishing: 'started publishing',
  published: 'published',
  failed: 'failed to publish',
  unconfirmed: 'could not confirm publishing',
  retried: 'retried publishing',
  resolved: 'resolved',
  repeated: 'published a copy for an occurrence',
  archived: 'archived it',
  restored: 'made it a draft again',
};

const detailOf = (entry: Activity) => {
  const { fields, comment, scheduledAt, error } = entry.details as {
    fields?: string[];
    comment?: string;
    scheduledAt?: string;
    error?: { message?: string };
  };
  if (fields) return ` (${fields.join(', ')})`;
  if (comment) return `: “${comment}”`;
  if (error?.message) return `: ${error.message}`;
  return scheduledAt ? ' for ' : '';
};

/** What was done, naming the channel of an entry about one (publishing to it, resolving it). */
function said(entry: Activity, channels: Map<string, Channel>) {
  if (!entry.channelId) return SAID[entry.action];
  const channel = channelInWords(channels.get(entry.channelId));
  if (entry.action !== 'resolved') return `${SAID[entry.action]} to ${channel}`;
  const { published } = entry.details as { published?: boolean };
  return `${SAID.resolved} ${channel} as ${published ? 'published' : 'not published'}`;
}

/** Who did what to the post, newest first: the latest 25 entries, each member by name. */
export async function ActivityList({
  caller,
  id,
  channels,
  zone,
}: {
  caller: DashboardCaller;
  id: string;
  /** The account's channels, by id, to name those entries are about. */
  channels: Map<string, Channel>;
  /** The account's time zone, as the rest of the post's page. */
  zone: string;
}) {
  const { data, meta } = await caller.posts.activity({ id, page: 1, limit: 25 });
  // One look-up per member who acted (a handful); a deleted one reads as a former member.
  const names = new Map<string, string>();
  for (const actorId of new Set(data.map((entry) => entry.actorId))) {
    if (!actorId) continue;
    const user = await caller.users.get({ userId: actorId }).catch(() => null);
    names.set(actorId, user?.name ?? 'A former member');
  }
  return (
    <section className="panel" aria-labelledby="post-activity">
      <h2 id="post-activity">Activity</h2>
      {data.length === 0 ? (
        <p className="muted">Nothing yet.</p>
      ) : (
        <ol className="activity">
          {data.map((entry) => {
            const scheduledAt = (entry.details as { scheduledAt?: string }).scheduledAt;
            return (
              <li key={entry.id}>
                <strong>{entry.actorId ? (names.get(entry.actorId) ?? '') : 'Chorus'}</strong>{' '}
                {said(entry, channels)}
                {detailOf(entry)}
                {scheduledAt && <ZoneTime iso={scheduledAt} zone={zone} />}{' '}
                <span className="muted small">
                  · <ZoneTime iso={entry.createdAt} zone={zone} />
                </span>
              </li>
            );
          })}
        </ol>
      )}
      {meta.pagination.total > data.length && (
        <p className="muted small">
          The latest {data.length} of {meta.pagination.total}; all of them at{' '}
          <code>GET /api/content/posts/{id}/activity</code>.
        </p>
      )}
    </section>
  );
}
