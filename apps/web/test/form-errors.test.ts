import { AppError } from '@chorus/services';
import { describe, expect, it } from 'vitest';
import { failed } from '../src/server/action-result';
import { fieldInWords, formError } from '../src/server/form-errors';

const refused = (issues: { path: string; message: string }[]) =>
  new AppError('validation_error', 'The request is not valid.', { issues });

describe('a refusal in words', () => {
  it('names a field as the form labels it, never by its path in the request', () => {
    const message = formError(
      refused([{ path: 'timeZone', message: 'Must be an IANA time zone name.' }]),
    );
    expect(message).not.toContain('timeZone');
    expect(message).toContain('Time zone');
  });

  it('names a thread post by its place, not its path', () => {
    const path = 'targets[1].thread[0].content';
    const message = formError(refused([{ path, message: 'A post needs text.' }]));
    expect(message).not.toMatch(/targets|thread\[/);
    expect(fieldInWords(path)).toBe('Post 2 of the thread on channel 2');
  });

  it('says an API name inside a message in words, in the toast and beside the field', () => {
    const error = refused([{ path: 'scheduledAt', message: 'scheduledAt must be in the future.' }]);
    const result = failed(error);
    expect(result.error).not.toContain('scheduledAt');
    expect(result.fields?.scheduledAt).not.toContain('scheduledAt');
    expect(result.fields?.scheduledAt).toMatch(/must be in the future/);
  });

  it('names a client’s own key in words, never as what an object’s prototype holds', () => {
    for (const key of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const words = fieldInWords(`settings.${key}`);
      expect(words, key).not.toMatch(/function|native code|\[object/);
      expect(words.toLowerCase().replaceAll(' ', ''), key).toBe(key.toLowerCase());
      const message = formError(refused([{ path: key, message: `${key} is reserved.` }]));
      expect(message, key).not.toMatch(/function|native code|\[object/);
    }
  });

  it('names a thread post’s channel as the composer shows it, where one is known', () => {
    const path = 'targets[1].thread[0].content';
    const names = (index: number) => (index === 1 ? 'northwind.test (Bluesky)' : undefined);
    expect(fieldInWords(path, names)).toBe('Post 2 of the thread on northwind.test (Bluesky)');
    expect(fieldInWords('targets[0].content', names)).toBe('Content on channel 1');
    const message = formError(refused([{ path, message: 'A post needs text.' }]), names);
    expect(message).toBe('Post 2 of the thread on northwind.test (Bluesky): A post needs text.');
  });

  it('says a field once where the message begins with it, not "From: From must…"', () => {
    for (const message of ['`from` must not be after `to`.', 'from must not be after `to`.']) {
      const error = refused([{ path: 'from', message }]);
      expect(formError(error)).toBe('From must not be after To.');
      expect(failed(error).fields?.from).toBe('From must not be after To.');
    }
    // A message that begins with the field's label, as the form words it, is not prefixed.
    const said = formError(refused([{ path: 'timeZone', message: 'Time zone is unknown.' }]));
    expect(said).toBe('Time zone is unknown.');
    // Nor one whose own words begin otherwise.
    expect(formError(refused([{ path: 'to', message: 'The range is too long.' }]))).toBe(
      'To: The range is too long.',
    );
  });

  it('says a request the API names as the dashboard names it, and `schedule` as Next free slot', () => {
    // The API's own messages (services' posts/rules.ts and publishing/slots.ts), kept for its clients.
    const approval = new AppError(
      'approval_required',
      'This account requires approval: submit the post (POST /api/content/posts/{id}/submit) and an admin schedules or publishes it.',
    );
    expect(formError(approval)).toBe(
      'This account requires approval: submit the post for approval and an admin schedules or publishes it.',
    );
    const noSlot = refused([
      {
        path: 'schedule',
        message:
          'This channel has no posting slots: set some on its page under Integrations, or with PUT /api/content/channels/{id}/slots.',
      },
    ]);
    const words =
      'This channel has no posting slots: set some on its Posting slots page (under Integrations).';
    expect(formError(noSlot)).toBe(`Next free slot: ${words}`);
    expect(failed(noSlot).fields?.schedule).toBe(words);
  });

  it('says a transition, a resolve and a locked target as the dashboard does: no request path, no id', () => {
    const target = '8c1f0a52-3d7e-4b8e-9a51-0f6f2d1c9e01';
    const channel = '2b7d9e44-61aa-4f0e-8c3b-5d9a7e1f3c22';
    const resolve = '(POST /api/content/posts/{id}/targets/{targetId}/resolve)';
    // The API's own messages (services' posts/transitions.ts, posts/publish-now.ts and
    // posts/targets.ts), kept for its clients.
    const said = (code: 'invalid_status_transition' | 'target_locked', message: string) =>
      formError(new AppError(code, message));
    const cases: [ReturnType<typeof said>, string][] = [
      [
        said(
          'invalid_status_transition',
          'A draft post becomes pending_approval through POST /api/content/posts/{id}/submit.',
        ),
        'A draft goes for approval with Submit for approval, in the composer.',
      ],
      [
        said(
          'invalid_status_transition',
          'A pending_approval post becomes published through POST /api/content/posts/{id}/approve.',
        ),
        'A post awaiting approval is scheduled or published when an admin approves it.',
      ],
      [
        said(
          'invalid_status_transition',
          `2 targets of this post may already be on the network (unconfirmed: ${target}, ${channel}): resolve them first ${resolve}.`,
        ),
        'This post may already be on a network (a channel marked Unconfirmed): say whether it is there first, with Resolve… under Channels.',
      ],
      [
        said(
          'target_locked',
          `2 targets are locked. Target ${target} (channel ${channel}) is published and is never sent again: it stays among the targets. Target ${channel} (channel ${target}) is unconfirmed and may already be on the network: what it sends (content, mediaIds, thread, firstComment) cannot change until it is resolved ${resolve}.`,
        ),
        'A channel the post went out on stays among its channels: it is never sent again. A channel marked Unconfirmed may already have the post: what it sends cannot change until you say whether it is there, with Resolve… under Channels.',
      ],
      [
        said(
          'target_locked',
          `Target ${target} (channel ${channel}) is unconfirmed and may already be on the network: it stays among the targets until it is resolved ${resolve}.`,
        ),
        'A channel marked Unconfirmed may already have the post: it stays among its channels until you say whether it is there, with Resolve… under Channels.',
      ],
      [
        said(
          'target_locked',
          `Target ${target} (channel ${channel}) is published and is never sent again: what it sends (content, mediaIds, thread, firstComment) cannot change.`,
        ),
        'What went out on a channel cannot change: it is never sent again.',
      ],
    ];
    for (const [words, expected] of cases) {
      expect(words).not.toMatch(/\/api\/|pending_approval|[0-9a-f]{8}-/);
      expect(words).toBe(expected);
    }
  });
});
