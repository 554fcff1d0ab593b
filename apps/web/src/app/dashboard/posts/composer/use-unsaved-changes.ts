'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { leavesForAppPage } from './leaves-page';

const ASK = 'Leave this page? Your changes to this post are not saved.';

/** A form's fields as one string, to tell whether anything changed since it was saved. */
const snapshot = (form: HTMLFormElement) =>
  JSON.stringify(
    [...new FormData(form).entries()].map(([name, value]) =>
      [name, typeof value === 'string' ? value : value.name].join('='),
    ),
  );

/** Whether the form differs from its fields as last saved. */
const differs = (form: HTMLFormElement | null, baseline: { fields: string } | null) =>
  !!form && !!baseline && snapshot(form) !== baseline.fields;

/**
 * The part of the Navigation API read here (not yet in TypeScript's DOM types): Chromium and
 * Safari have it; elsewhere Back and Forward go without asking, as before.
 */
interface HistoryNavigation {
  addEventListener(type: 'navigate', listener: (event: TraversalEvent) => void): void;
  removeEventListener(type: 'navigate', listener: (event: TraversalEvent) => void): void;
}
interface TraversalEvent extends Event {
  navigationType: 'push' | 'replace' | 'reload' | 'traverse';
}

/**
 * Asks before the composer's unsaved changes are lost: the browser's own prompt when the tab
 * closes or reloads (`beforeunload`), and a confirmation on a click on a link to another page
 * of the app, or on Back or Forward to another of its pages, which the app router follows
 * without unloading anything (the Navigation API's `navigate` event, cancelable for such a
 * step once the page has been used; no `beforeunload` fires for it). Changed means the form
 * differs from the post as last saved (`saved`, a change when a save answered), so typing then
 * undoing it asks nothing; a refused save keeps the changes unsaved. `ref` goes on the form;
 * `unsaved` says whether it holds changes now, as of the last `recheck` (the form calls it on
 * each input, the composer after each change of what it draws itself).
 */
export function useUnsavedChanges(saved: string) {
  const form = useRef<HTMLFormElement | null>(null);
  const baseline = useRef<{ saved: string; fields: string } | null>(null);
  const [unsaved, setUnsaved] = useState(false);
  const recheck = useCallback(() => setUnsaved(differs(form.current, baseline.current)), []);
  // The form is drawn anew after each save (a refusal leaves it as it is): its first drawing
  // after a save is the baseline.
  const ref = useCallback(
    (element: HTMLFormElement | null) => {
      form.current = element;
      if (element && baseline.current?.saved !== saved) {
        baseline.current = { saved, fields: snapshot(element) };
        setUnsaved(false);
      }
    },
    [saved],
  );
  useEffect(() => {
    const changed = () => differs(form.current, baseline.current);
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!changed()) return;
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = '';
    };
    const onClick = (event: MouseEvent) => {
      const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (!(link instanceof HTMLAnchorElement)) return;
      const click = {
        href: link.href,
        target: link.getAttribute('target'),
        download: link.getAttribute('download'),
        button: event.button,
        modified: event.ctrlKey || event.metaKey || event.shiftKey || event.altKey,
        defaultPrevented: event.defaultPrevented,
      };
      if (!leavesForAppPage(click, new URL(window.location.href)) || !changed()) return;
      // Prevented before the router's own handler runs (this listener captures at the
      // document, above React's root), which then leaves the click alone.
      if (!window.confirm(ASK)) event.preventDefault();
    };
    const onTraverse = (event: TraversalEvent) => {
      if (event.navigationType !== 'traverse' || !event.cancelable || !changed()) return;
      if (!window.confirm(ASK)) event.preventDefault();
    };
    const navigation = (window as { navigation?: HistoryNavigation }).navigation;
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('click', onClick, true);
    navigation?.addEventListener('navigate', onTraverse);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('click', onClick, true);
      navigation?.removeEventListener('navigate', onTraverse);
    };
  }, []);
  return { ref, unsaved, recheck };
}
