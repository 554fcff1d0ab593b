/**
 * Where a refusal sends the member of a channel without posting slots, in the dashboard's words:
 * the line under Next free slot makes it a link to that page.
 */
export const SLOTS_PAGE = 'its Posting slots page';

/**
 * Phrases of the API's messages that name a request, for API clients (which rely on them, so the
 * API keeps them), and how the dashboard says each: what its own pages and buttons are called.
 */
const PHRASES: ReadonlyMap<string, string> = new Map([
  // approval_required (services' posts/rules.ts): the composer's Submit for approval.
  [' (POST /api/content/posts/{id}/submit)', ' for approval'],
  // next_slot on a channel without slots (services' publishing/slots.ts).
  [
    'its page under Integrations, or with PUT /api/content/channels/{id}/slots',
    `${SLOTS_PAGE} (under Integrations)`,
  ],
]);

/**
 * An API message as the dashboard shows it: every refusal a page shows (a server action's
 * toast and fields, the import preview) goes through here, with the API's own words kept
 * wherever the dashboard has none of its own.
 */
export const inDashboardWords = (message: string) => {
  let said = message;
  for (const [api, words] of PHRASES) said = said.replaceAll(api, words);
  return said;
};
