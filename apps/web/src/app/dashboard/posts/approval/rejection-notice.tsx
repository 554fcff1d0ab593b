import type { Post } from '@chorus/validators';
import { LocalTime } from '~/components/local-time';

/** The last rejection's comment, for the author to act on, until the post is submitted again. */
export function RejectionNotice({ rejection }: { rejection: Post['rejection'] }) {
  if (!rejection) return null;
  return (
    <div className="notice" role="note" aria-label="Rejected">
      <p>
        <strong>Rejected</strong>{' '}
        <span className="muted small">
          <LocalTime iso={rejection.rejectedAt} />
        </span>
      </p>
      <p className="prewrap">{rejection.comment}</p>
    </div>
  );
}
