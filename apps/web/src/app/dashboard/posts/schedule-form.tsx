'use client';

import type { Post } from '@chorus/validators';
import { Field } from '~/components/field';
import { fromLocalInput, toLocalInput } from '~/components/local-dates';
import { TimeZoneNote, useTimeZone } from '~/components/local-time';
import { useToastAction } from '~/components/toast';
import { changePostStatus } from './actions';

type ScheduleProps = { post: Pick<Post, 'id' | 'status' | 'scheduledAt'> };

/**
 * Schedules a draft, or moves a scheduled post to another time. The time is picked on the
 * reader's clock and sent as a UTC instant; the API refuses one that is not in the future.
 */
export function ScheduleForm({ post }: ScheduleProps) {
  const zone = useTimeZone();
  const [result, run, pending] = useToastAction(changePostStatus);
  const submit = (form: FormData) => {
    form.set('scheduledAt', fromLocalInput(String(form.get('when') ?? '')) ?? '');
    run(form);
  };
  const typed = result.values?.when;
  // The current time on the reader's clock is known only in the browser: the input is drawn
  // again once it is (and when the post's time changes), with that value.
  const current = zone && post.scheduledAt ? toLocalInput(post.scheduledAt) : undefined;
  const rescheduling = post.status === 'scheduled';
  return (
    <form
      action={submit}
      className="form schedule"
      key={`${result.at}-${zone}-${post.scheduledAt}`}
    >
      <input type="hidden" name="id" value={post.id} />
      <input type="hidden" name="status" value="scheduled" />
      <Field
        label={rescheduling ? 'Publish at (reschedule)' : 'Publish at'}
        name="when"
        type="datetime-local"
        defaultValue={typed ?? current}
        hint={<TimeZoneNote prefix="In your time zone" />}
        error={result.fields?.scheduledAt ?? result.fields?.when}
      />
      <button type="submit" className="primary" disabled={pending}>
        {rescheduling ? 'Reschedule' : 'Schedule'}
      </button>
    </form>
  );
}
