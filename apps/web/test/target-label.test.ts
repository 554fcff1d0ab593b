import { POST_STATUSES } from '@chorus/validators';
import { describe, expect, it } from 'vitest';
import { targetLabel } from '../src/app/dashboard/posts/[id]/target-label';

describe('a channel not yet sent to', () => {
  it('says what its post waits for: queued only while the post is publishing', () => {
    const pending = { status: 'pending' } as const;
    const labels = Object.fromEntries(
      POST_STATUSES.map((status) => [status, targetLabel(pending, { status })]),
    );
    expect(labels).toMatchObject({
      draft: 'Not sent',
      pending_approval: 'Awaiting approval',
      scheduled: 'Scheduled',
      publishing: 'Waiting',
    });
  });

  it('is named by its own state once it has one', () => {
    expect(targetLabel({ status: 'published' }, { status: 'published' })).toBe('Published');
    expect(targetLabel({ status: 'failed' }, { status: 'failed' })).toBe('Failed');
  });
});
