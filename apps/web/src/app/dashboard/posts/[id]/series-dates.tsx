import type { Post } from '@chorus/validators';
import Link from 'next/link';
import { ZoneTime } from '~/components/zone-time';
import { repeatsInWords } from '../repeats';

/** Why a series has no occurrence to come, by its status. */
function noneToCome(status: Post['status']) {
  if (status === 'archived') return 'Archived: no more copies go out.';
  if (status === 'draft' || status === 'pending_approval') {
    return 'Its occurrences are planned once it is scheduled.';
  }
  return 'The series has ended: no occurrence to come.';
}

/**
 * A recurring post's rule in words and the occurrences the scheduler publishes next, in the
 * account's time zone (`zone`, where the rule is kept); nothing for a post that does not repeat.
 */
export function SeriesDates({ post, zone }: { post: Post; zone: string }) {
  if (post.recurrence === null) return null;
  return (
    <div className="series small">
      <p>
        <span aria-hidden="true">↻ </span>Repeats: {repeatsInWords(post.recurrence)}
      </p>
      {post.nextOccurrences.length > 0 ? (
        <div className="series-next">
          <span id="series-next">Next:</span>
          <ul className="plain" aria-labelledby="series-next">
            {post.nextOccurrences.map((at) => (
              <li key={at}>
                <ZoneTime iso={at} zone={zone} />
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p className="muted">{noneToCome(post.status)}</p>
      )}
    </div>
  );
}

/**
 * On a copy a series made: which series it came from, since changes to the occurrences to come
 * are made there, not on the copy.
 */
export function SeriesOrigin({ post }: { post: Post }) {
  if (post.recurrenceOf === null) return null;
  return (
    <p className="series small">
      <span aria-hidden="true">↻ </span>One occurrence of a recurring post:{' '}
      <Link href={`/dashboard/posts/${post.recurrenceOf}`}>open the series</Link> to change the ones
      to come.
    </p>
  );
}
