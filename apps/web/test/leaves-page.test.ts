import { describe, expect, it } from 'vitest';
import { leavesForAppPage } from '../src/app/dashboard/posts/composer/leaves-page';

const here = new URL('http://localhost:3000/dashboard/posts/new');
const click = (href: string, more: Partial<Parameters<typeof leavesForAppPage>[0]> = {}) =>
  leavesForAppPage(
    {
      href,
      target: null,
      download: null,
      button: 0,
      modified: false,
      defaultPrevented: false,
      ...more,
    },
    here,
  );

describe('a click that leaves the composer for another page of the app', () => {
  it('is a plain click on a link to another path or query of this origin', () => {
    expect(click('/dashboard/posts')).toBe(true);
    expect(click('http://localhost:3000/dashboard')).toBe(true);
    expect(click('/dashboard/posts/new?x=1')).toBe(true);
  });

  it('is not one that opens a tab, downloads, stays on the page or leaves the app', () => {
    expect(click('/dashboard', { modified: true })).toBe(false);
    expect(click('/dashboard', { button: 1 })).toBe(false);
    expect(click('/dashboard', { target: '_blank' })).toBe(false);
    expect(click('/dashboard', { download: '' })).toBe(false);
    expect(click('/dashboard', { defaultPrevented: true })).toBe(false);
    expect(click('#preview')).toBe(false);
    expect(click('https://bsky.app/profile/x')).toBe(false);
  });
});
