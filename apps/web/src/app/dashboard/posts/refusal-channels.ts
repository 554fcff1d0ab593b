import { toApiError } from '@chorus/api';
import type { TargetInput } from '@chorus/validators';
import { failed, type ActionResult } from '~/server/action-result';
import type { DashboardCaller } from '~/server/dashboard';
import type { ChannelNames } from '~/server/form-errors';
import { channelInWords } from './channel-badge';
import { accountChannels } from './channels';

/** Whether a refusal names a target by its place in the request (`targets[1].…`). */
const namesTargets = (error: unknown) => {
  const issues = toApiError(error).details?.issues;
  return (
    Array.isArray(issues) &&
    issues.some((issue: { path?: unknown }) => String(issue.path ?? '').startsWith('targets['))
  );
};

/**
 * A refused post form as it shows, each channel named as the composer shows it ("Post 2 of
 * the thread on northwind.test (Bluesky)"), where the request's path says only its place.
 */
export function refusedNamingChannels(form: FormData, targets: TargetInput[] | undefined) {
  return async (error: unknown, caller: DashboardCaller): Promise<ActionResult> => {
    if (!targets?.length || !namesTargets(error)) return failed(error);
    const channels = new Map((await accountChannels(caller)).map((c) => [c.id, c]));
    const names: ChannelNames = (index) => {
      const channel = channels.get(targets[index]?.channelId ?? '');
      return channel && channelInWords(channel);
    };
    return failed(error, names);
  };
}
