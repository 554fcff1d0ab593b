import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ChannelAvatar } from '../src/app/dashboard/posts/channel-badge';

const render = (avatarUrl: string | null) =>
  renderToStaticMarkup(
    createElement(ChannelAvatar, { channel: { integrationId: 'mastodon', avatarUrl } }),
  );

describe('a channel’s avatar', () => {
  it('shows the profile picture over the network’s initial, sent no referrer', () => {
    const html = render('https://files.mastodon.social/avatars/1.png');
    expect(html).toContain('>M<img');
    expect(html).toContain('src="https://files.mastodon.social/avatars/1.png"');
    expect(html).toContain('referrerPolicy="no-referrer"');
    expect(html).toContain('alt=""');
  });

  it('keeps the initial alone without an https picture (the pages load images from https only)', () => {
    for (const url of [null, 'http://127.0.0.1:4000/avatars/1.png', 'javascript:alert(1)']) {
      expect(render(url)).toBe(
        '<span class="channel-avatar net-mastodon" aria-hidden="true">M</span>',
      );
    }
  });
});
