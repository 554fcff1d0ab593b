/** What matters of a click on a link, read from the event and the anchor. */
export interface LinkClick {
  href: string;
  /** The anchor's `target` and `download` attributes (null when absent). */
  target: string | null;
  download: string | null;
  button: number;
  /** Any of Ctrl, Meta, Shift or Alt held: a new tab or window, or a download. */
  modified: boolean;
  defaultPrevented: boolean;
}

/**
 * Whether a click on a link takes this tab to another page of the app: the navigation the
 * browser's `beforeunload` does not see (the app router swaps the page itself). A click that
 * opens a new tab or window, downloads, stays on this page (a `#` link) or leaves the app (the
 * browser asks then) is not one.
 */
export function leavesForAppPage(click: LinkClick, here: URL): boolean {
  if (click.defaultPrevented || click.button !== 0 || click.modified) return false;
  if (click.download !== null || (click.target && click.target !== '_self')) return false;
  let to: URL;
  try {
    to = new URL(click.href, here);
  } catch {
    return false;
  }
  if (to.origin !== here.origin) return false;
  return to.pathname !== here.pathname || to.search !== here.search;
}
