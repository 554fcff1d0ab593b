import type { Post } from '@chorus/validators';
import { ZoneTime } from '~/components/zone-time';

/** The last rejection's comment, for the author to act on, until the post is submitted again. */
export function RejectionNotice({
  rejection,
  zone,
}: {
  rejection: Post['rejection'];
  zone: string;
}) {
  if (!rejection) return null;
  return (
    <div className="notice" role="note" aria-label="Rejected">
      <p>
        <strong>Rejected</strong>{' '}
        <span className="muted small">
          <ZoneTime iso={rejection.rejectedAt} zone={zone} />
        </span>
      </p>
      <p className="prewrap">{rejection.comment}</p>
    </div>
  );
}
