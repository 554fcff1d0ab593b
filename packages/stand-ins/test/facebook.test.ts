import { FacebookAdsApi, Page, Post, User } from 'facebook-nodejs-business-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { facebookFaults, startFacebook, type FacebookStandIn } from '../src';

/**
 * The Facebook stand-in checked with Meta's own Node SDK (facebook-nodejs-business-sdk), its
 * Graph address pointed at the stand-in: it lists a login's Pages, posts and comments as a Page,
 * and reads Meta's error object the way the SDK parses real Graph answers.
 */
let fb: FacebookStandIn;

beforeAll(async () => {
  fb = await startFacebook();
  fb.addUser({
    token: 'user-token',
    pages: [{ id: '1001', name: 'Chorus Cafe', username: 'choruscafe', token: 'page-token' }],
  });
  // The SDK builds every URL from this getter; the crash reporter stays off (it reports to Meta).
  Object.defineProperty(FacebookAdsApi, 'GRAPH', { get: () => fb.url, configurable: true });
});
afterAll(() => fb.close());

describe('the Facebook stand-in, through the Business SDK', () => {
  it('lists the Pages of a login, each with its Page token', async () => {
    FacebookAdsApi.init('user-token', 'en_US', false);
    const accounts = await new User('me').getAccounts(['id', 'name', 'access_token']);
    expect(accounts.map((page) => [page.id, page._data.access_token])).toEqual([
      ['1001', 'page-token'],
    ]);
  });

  it('publishes to the feed and comments as the Page', async () => {
    FacebookAdsApi.init('page-token', 'en_US', false);
    const post = await new Page('1001').createFeed([], { message: 'Fresh bread at eight' });
    expect(post.id).toMatch(/^1001_\d+$/);
    const comment = await new Post(post.id).createComment([], { message: 'Open till noon' });
    expect(comment.id).toMatch(new RegExp(`^${post.id}_`));
    expect(fb.posts.at(-1)).toMatchObject({ message: 'Fresh bread at eight' });
    expect(fb.comments.at(-1)).toMatchObject({ on: post.id, message: 'Open till noon' });
  });

  it("answers Meta's error object, which the SDK parses", async () => {
    FacebookAdsApi.init('user-token', 'en_US', false);
    const refused = await new Page('1001')
      .createFeed([], { message: 'as the user' })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({
      name: 'FacebookRequestError',
      status: 403,
      response: { code: 200 },
    });

    fb.faults.inject(facebookFaults.rateLimited('1001'));
    FacebookAdsApi.init('page-token', 'en_US', false);
    const throttled = await new Page('1001')
      .createFeed([], { message: 'again' })
      .catch((e: unknown) => e);
    expect(throttled).toMatchObject({
      status: 400,
      response: { code: 32, message: 'Page request limit reached' },
    });
    const usage = JSON.parse(
      (throttled as { headers: Record<string, string> }).headers['x-business-use-case-usage'] ??
        '{}',
    );
    expect(usage['1001'][0]).toMatchObject({ type: 'pages', estimated_time_to_regain_access: 2 });

    fb.endToken('page-token', 'password_changed');
    const ended = await new Page('1001')
      .createFeed([], { message: 'late' })
      .catch((e: unknown) => e);
    expect(ended).toMatchObject({
      response: { code: 190, error_subcode: 460, type: 'OAuthException' },
    });
  });
});
