import type { Channel, Post, Target } from '@chorus/validators';
import { NETWORK_LIMITS } from '@chorus/validators';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ChannelPicker } from '../src/app/dashboard/posts/composer/channel-picker';
import { LockedVariant } from '../src/app/dashboard/posts/composer/locked-variant';
import {
  localIssues,
  lockReasons,
  targetsOf,
  variantsOfPost,
} from '../src/app/dashboard/posts/composer/draft';

/**
 * The composer and a post that went out: a published or unconfirmed channel is shown locked,
 * and its save sends that target back as the post has it, which the API takes (it refuses a
 * list that drops or changes one: docs/publishing.md, Targets).
 */

const target = (channelId: string, status: Target['status'], own: Partial<Target> = {}) =>
  ({
    id: `tgt_${channelId}`,
    channelId,
    content: null,
    mediaIds: null,
    firstComment: null,
    thread: null,
    status,
    externalId: status === 'published' ? '110' : null,
    url: status === 'published' ? 'https://mastodon.example/@me/110' : null,
    publishedAt: null,
    attempts: 1,
    error: null,
    ...own,
  }) satisfies Target;

const post = {
  id: 'post_1',
  status: 'draft',
  content: 'Hello',
  targets: [
    target('chn_m', 'published', { content: 'Hello, fediverse', firstComment: '  ' }),
    target('chn_x', 'unconfirmed'),
    target('chn_b', 'failed'),
  ],
} as unknown as Post;

const channel = (id: string, integrationId: Channel['integrationId']) =>
  ({
    id,
    integrationId,
    name: id,
    handle: `@${id}`,
    avatarUrl: null,
    kind: 'account',
    limits: NETWORK_LIMITS[integrationId],
    connectionStatus: 'connected',
    createdAt: '2026-11-30T00:00:00.000Z',
  }) as Channel;

describe('a post’s locked channels in the composer', () => {
  it('are sent back as the post has them, whatever the variant holds', () => {
    const variants = variantsOfPost(post);
    expect(variants.map((v) => v.locked?.status ?? null)).toEqual([
      'published',
      'unconfirmed',
      null,
    ]);
    // Even a variant changed behind the panel's back sends the target as it went out.
    const edited = variants.map((v) => ({ ...v, content: 'changed', override: true }));
    const draft = { content: 'Hello again', mediaIds: [], variants: edited };
    expect(targetsOf(draft)).toEqual([
      { channelId: 'chn_m', content: 'Hello, fediverse', firstComment: '  ' },
      { channelId: 'chn_x' },
      { channelId: 'chn_b', content: 'changed' },
    ]);
  });

  it('hold nothing up: a text too long for the network is not their issue', () => {
    const channels = new Map([
      ['chn_m', channel('chn_m', 'mastodon')],
      ['chn_x', channel('chn_x', 'x')],
    ]);
    const draft = { content: 'a'.repeat(400), mediaIds: [], variants: variantsOfPost(post) };
    expect(localIssues(draft, channels, new Map())).toEqual([]);
  });

  it('are checked and disabled in the picker, each saying why', () => {
    const reasons = lockReasons(variantsOfPost(post));
    const html = renderToStaticMarkup(
      createElement(ChannelPicker, {
        channels: [
          channel('chn_m', 'mastodon'),
          channel('chn_x', 'x'),
          channel('chn_b', 'bluesky'),
        ],
        chosen: ['chn_m', 'chn_x', 'chn_b'],
        locked: reasons,
        onToggle: () => {},
        errorId: 'c',
      }),
    );
    const items = html.split('<li>').slice(1);
    expect(items[0]).toMatch(
      /<input type="checkbox" disabled="" aria-describedby="c-lock-chn_m" checked=""/,
    );
    expect(items[0]).toContain('id="c-lock-chn_m"');
    expect(items[0]).toContain('Published: a post goes to a channel once');
    expect(items[1]).toContain('disabled=""');
    expect(items[1]).toContain('Unconfirmed: it may already be on the network');
    expect(items[2]).not.toContain('disabled');
  });

  it('show what they sent in their tab, with the link, instead of the editor', () => {
    const [published] = variantsOfPost(post);
    const html = renderToStaticMarkup(
      createElement(LockedVariant, {
        channel: channel('chn_m', 'mastodon'),
        locked: published?.locked ?? { status: 'published', url: null, target: { channelId: '' } },
        reason: 'Published.',
      }),
    );
    expect(html).toContain('Published.');
    expect(html).toContain('Hello, fediverse');
    expect(html).toContain('href="https://mastodon.example/@me/110"');
    expect(html).not.toMatch(/<textarea|<input/);
    // One that sent the shared text says it keeps it: the API leaves it that text on an edit.
    const [, unconfirmed] = variantsOfPost(post);
    const shared = renderToStaticMarkup(
      createElement(LockedVariant, {
        channel: channel('chn_x', 'x'),
        locked: unconfirmed?.locked ?? {
          status: 'unconfirmed',
          url: null,
          target: { channelId: '' },
        },
        reason: 'Unconfirmed.',
      }),
    );
    expect(shared).toContain('keeps that text if the shared text changes');
  });
});
