import { POST_STATUSES } from '@chorus/validators';
import { describe, expect, it } from 'vitest';
import { composerStep, readOnlyBecause } from '../src/app/dashboard/posts/composer/step';

const names = (status: Parameters<typeof composerStep>[0], submits: boolean) => {
  const { save, next } = composerStep(status, submits);
  return [save, next?.label ?? null, next?.intent ?? null];
};

describe('the composer’s buttons', () => {
  it('schedule a new post or a draft, and reschedule a scheduled one', () => {
    expect(names(undefined, false)).toEqual(['Save as draft', 'Schedule', 'schedule']);
    expect(names('draft', false)).toEqual(['Save', 'Schedule', 'schedule']);
    expect(names('scheduled', false)).toEqual(['Save', 'Reschedule', 'schedule']);
  });

  it('submit for approval instead, for a member who must, and never schedule', () => {
    expect(names(undefined, true)).toEqual(['Save as draft', 'Submit for approval', 'submit']);
    expect(names('draft', true)).toEqual(['Save', 'Submit for approval', 'submit']);
    for (const status of POST_STATUSES) {
      expect(composerStep(status, true).next?.intent).not.toBe('schedule');
    }
  });

  it('only save a post that is past scheduling', () => {
    for (const status of [
      'pending_approval',
      'publishing',
      'published',
      'failed',
      'archived',
    ] as const) {
      expect(names(status, false)).toEqual(['Save', null, null]);
    }
  });

  it('leave a scheduled post alone for a member who must submit (the API refuses any change)', () => {
    expect(readOnlyBecause({ status: 'scheduled' }, true)).toMatch(/approval/);
    expect(readOnlyBecause({ status: 'scheduled' }, false)).toBeNull();
    expect(readOnlyBecause({ status: 'draft' }, true)).toBeNull();
    // A post awaiting approval is the admin's to change (or its author's once withdrawn).
    expect(readOnlyBecause({ status: 'pending_approval' }, true)).toMatch(/withdraw it to draft/);
    expect(readOnlyBecause({ status: 'pending_approval' }, false)).toMatch(/withdraw it to draft/);
    expect(readOnlyBecause({ status: 'pending_approval' }, false, true)).toBeNull();
  });
});

describe('which posts are shown instead of edited', () => {
  it('a post being published or published, for anyone, each with its reason', () => {
    for (const submits of [false, true]) {
      expect(readOnlyBecause({ status: 'publishing' }, submits)).toMatch(
        /once publishing has ended/,
      );
      expect(readOnlyBecause({ status: 'published' }, submits)).toMatch(/as it was sent/);
    }
  });

  it('keeps a failed post editable, to fix what a network refused, and the other statuses', () => {
    for (const status of ['draft', 'failed', 'archived'] as const) {
      expect(readOnlyBecause({ status }, false)).toBeNull();
    }
  });
});
