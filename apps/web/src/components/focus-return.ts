/**
 * Where focus goes when the element that held it leaves the page: a dialog's opener removed by
 * what the dialog did (a rejected post leaves the list), or re-drawn elsewhere (a post moved to
 * another day), or a button replaced by the form it opened. The browser drops focus to <body>,
 * which sends a keyboard or screen-reader user back to the top of the page with no word of it.
 */

/** How long a focused element is watched: a server action and the page's refresh take seconds. */
const WATCH_MS = 30_000;

const focusable = (element: Element | null): element is HTMLElement =>
  element instanceof HTMLElement && element.isConnected && !element.closest('[inert]');

/**
 * The element drawn in place of `gone`: one of its kind with its accessible name or id (a moved
 * post's Move button in its new day). An unnamed one has no successor: another row's "Edit"
 * is not it.
 */
function successorOf(gone: HTMLElement): HTMLElement | null {
  const label = gone.getAttribute('aria-label');
  if (!label && !gone.id) return null;
  const main = document.querySelector('main') ?? document.body;
  for (const candidate of main.querySelectorAll<HTMLElement>(gone.tagName)) {
    const same = label ? candidate.getAttribute('aria-label') === label : candidate.id === gone.id;
    if (same && focusable(candidate) && !candidate.matches(':disabled')) return candidate;
  }
  return null;
}

/**
 * Focuses `element`, made focusable by script when it is not (a heading or the main landmark),
 * without scrolling a page the user is reading.
 */
function focusOn(element: HTMLElement) {
  if (element.tabIndex < 0 && !element.hasAttribute('tabindex')) element.tabIndex = -1;
  element.focus({ preventScroll: element === document.querySelector('main') });
}

/**
 * The place to give focus when `gone` left: what replaced it, else `fallback` (a dialog's own
 * choice), else the page's main heading, else the main landmark.
 */
export function focusTarget(gone: HTMLElement | null, fallback?: () => HTMLElement | null) {
  const replaced = gone ? successorOf(gone) : null;
  if (replaced) return replaced;
  const chosen = fallback?.() ?? null;
  if (focusable(chosen)) return chosen;
  const heading = document.querySelector<HTMLElement>('main h1');
  if (focusable(heading)) return heading;
  return document.querySelector<HTMLElement>('main');
}

/**
 * Keeps focus off <body> while `element` holds it: once the element is removed with focus
 * left on nothing, focus moves to `focusTarget`. Watching ends when the user moves focus
 * themselves, or after a while; the function returned stops it sooner.
 */
export function keepFocusFrom(
  element: HTMLElement,
  fallback?: () => HTMLElement | null,
): () => void {
  const lost = () => document.activeElement === null || document.activeElement === document.body;
  const check = () => {
    if (element.isConnected || !lost()) return;
    stop();
    const target = focusTarget(element, fallback);
    if (target) focusOn(target);
  };
  // Focus went to another element while this one stayed: the user's choice, left alone. Focus
  // going to nothing (a button disabled while its action runs) is not a choice.
  const moved = (event: FocusEvent) => {
    if (event.relatedTarget !== null && element.isConnected) stop();
  };
  const observer = new MutationObserver(check);
  observer.observe(document.body, { childList: true, subtree: true });
  element.addEventListener('focusout', moved);
  const timer = setTimeout(() => stop(), WATCH_MS);
  function stop() {
    observer.disconnect();
    element.removeEventListener('focusout', moved);
    clearTimeout(timer);
  }
  return stop;
}

/**
 * After the app router moved to another page: focus that was left on nothing (the button that
 * navigated, a composer's Schedule, went with the old page), or on the main landmark for want
 * of a heading (the loading state has none), goes to the new page's main heading once it is
 * drawn. Focus the user placed themselves is theirs; watching ends then, or after a while.
 */
export function headingAfterNavigation(): () => void {
  const unplaced = () => {
    const active = document.activeElement;
    return !active || active === document.body || active === document.querySelector('main');
  };
  const settle = () => {
    if (!unplaced()) return stop();
    const heading = document.querySelector<HTMLElement>('main h1');
    if (!focusable(heading)) return;
    stop();
    focusOn(heading);
  };
  const observer = new MutationObserver(settle);
  observer.observe(document.body, { childList: true, subtree: true });
  const timer = setTimeout(() => stop(), WATCH_MS);
  function stop() {
    observer.disconnect();
    clearTimeout(timer);
  }
  settle();
  return stop;
}

/**
 * A form's submit button while its action runs: if the answer takes it away (a row removed,
 * the composer drawn anew for the saved post), focus left on nothing goes to its successor, to
 * `fallback` (a section's heading), or to the page's heading. Focus placed anywhere else first
 * (a closing dialog gives it back to its opener) ends the watch.
 */
export function keepFocusFromSubmitter(button: HTMLElement, fallback?: () => HTMLElement | null) {
  const watching = keepFocusFrom(button, fallback);
  const placed = (event: FocusEvent) => {
    if (event.target !== button) stop();
  };
  document.addEventListener('focusin', placed);
  const timer = setTimeout(() => stop(), WATCH_MS);
  function stop() {
    watching();
    document.removeEventListener('focusin', placed);
    clearTimeout(timer);
  }
}

/**
 * After a dialog closed: focus back on its opener if it is still on the page (watched, since
 * the action's refresh may yet remove it), else on what `focusTarget` finds.
 */
export function returnFocus(opener: HTMLElement | null, fallback?: () => HTMLElement | null) {
  if (opener?.isConnected) {
    opener.focus();
    if (document.activeElement === opener) return keepFocusFrom(opener, fallback);
  }
  const target = focusTarget(opener, fallback);
  if (target) focusOn(target);
  return () => {};
}
