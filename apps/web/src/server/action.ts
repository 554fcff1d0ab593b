import { revalidatePath } from 'next/cache';
import { failed, succeeded, type ActionResult } from './action-result';
import { dashboardCaller, type DashboardCaller } from './dashboard';

type ActOptions<R> = {
  /** The action's page: a lapsed session signs in again and comes back to it. */
  path: string;
  /**
   * The pages that show what the action changed, to render again: a page, a page and every
   * page below it (`{ layout }`), or none for an action that changes nothing. The action's
   * page by default.
   */
  shows?: string | { layout: string } | false;
  /** How a refusal answers (it may ask the procedures more); by default as a form shows it (`failed`). */
  refused?: (error: unknown, caller: DashboardCaller) => R | Promise<R>;
};

/**
 * A dashboard server action: `run` calls the procedures as the signed-in user (the same rules
 * as the API's doors), then the pages that show the change are rendered again; a refusal
 * answers as the form shows it, its message beside each field it names. `run` answers the
 * toast's message, or a whole result.
 */
export function act(
  options: ActOptions<ActionResult>,
  run: (caller: DashboardCaller) => Promise<string | ActionResult>,
): Promise<ActionResult>;
export function act<R>(
  options: ActOptions<R> & { refused: (error: unknown, caller: DashboardCaller) => R | Promise<R> },
  run: (caller: DashboardCaller) => Promise<R>,
): Promise<R>;
export async function act(
  options: ActOptions<unknown>,
  run: (caller: DashboardCaller) => Promise<unknown>,
): Promise<unknown> {
  const caller = await dashboardCaller(options.path);
  let answer: unknown;
  try {
    answer = await run(caller);
  } catch (error) {
    return options.refused ? await options.refused(error, caller) : failed(error);
  }
  const shows = options.shows ?? options.path;
  if (typeof shows === 'string') revalidatePath(shows);
  else if (shows) revalidatePath(shows.layout, 'layout');
  return typeof answer === 'string' ? succeeded(answer) : answer;
}

/** For an action whose form shows no answer: a refusal is the page's error, as before. */
export const rethrow = (error: unknown): never => {
  throw error;
};
