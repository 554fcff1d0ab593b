/**
 * Where a refusal sends the member of a channel without posting slots, in the dashboard's words:
 * the line under Next free slot makes it a link to that page.
 */
export const SLOTS_PAGE = 'its Posting slots page';

/** Where the dashboard settles a target the network may have: its Resolve… button. */
const RESOLVE = 'with Resolve… under Channels';

/**
 * Phrases of the API's messages that name a request, for API clients (which rely on them, so the
 * API keeps them), and how the dashboard says each: what its own pages and buttons are called.
 * A phrase that carries ids (a target's, a channel's) is matched whole: the dashboard names the
 * channels on the page, never by id.
 */
const PHRASES: readonly (readonly [string | RegExp, string])[] = [
  // approval_required (services' posts/rules.ts): the composer's Submit for approval.
  [' (POST /api/content/posts/{id}/submit)', ' for approval'],
  // next_slot on a channel without slots (services' publishing/slots.ts).
  [
    'its page under Integrations, or with PUT /api/content/channels/{id}/slots',
    `${SLOTS_PAGE} (under Integrations)`,
  ],
  // A change of status that is a request of its own (services' posts/transitions.ts).
  [
    /A draft post becomes pending_approval through POST \/api\/content\/posts\/\{id\}\/submit\./g,
    'A draft goes for approval with Submit for approval, in the composer.',
  ],
  [
    /A pending_approval post becomes \w+ through POST \/api\/content\/posts\/\{id\}\/approve\./g,
    'A post awaiting approval is scheduled or published when an admin approves it.',
  ],
  // Publishing or retrying with unconfirmed targets (services' posts/publish-now.ts).
  [
    /(?:A target|\d+ targets) of this post may already be on the network \(unconfirmed: [^)]*\): resolve (?:it|them) first \(POST \/api\/content\/posts\/\{id\}\/targets\/\{targetId\}\/resolve\)\./g,
    `This post may already be on a network (a channel marked Unconfirmed): say whether it is there first, ${RESOLVE}.`,
  ],
  // A locked target changed or dropped (services' posts/targets.ts), "N targets are locked."
  // before several.
  [/\d+ targets are locked\. /g, ''],
  [
    /Target \S+ \(channel [^)]*\) is published and is never sent again: it stays among the targets\./g,
    'A channel the post went out on stays among its channels: it is never sent again.',
  ],
  [
    /Target \S+ \(channel [^)]*\) is published and is never sent again: what it sends \(content, mediaIds, thread, firstComment\) cannot change\./g,
    'What went out on a channel cannot change: it is never sent again.',
  ],
  [
    /Target \S+ \(channel [^)]*\) is unconfirmed and may already be on the network: it stays among the targets until it is resolved \(POST \/api\/content\/posts\/\{id\}\/targets\/\{targetId\}\/resolve\)\./g,
    `A channel marked Unconfirmed may already have the post: it stays among its channels until you say whether it is there, ${RESOLVE}.`,
  ],
  [
    /Target \S+ \(channel [^)]*\) is unconfirmed and may already be on the network: what it sends \(content, mediaIds, thread, firstComment\) cannot change until it is resolved \(POST \/api\/content\/posts\/\{id\}\/targets\/\{targetId\}\/resolve\)\./g,
    `A channel marked Unconfirmed may already have the post: what it sends cannot change until you say whether it is there, ${RESOLVE}.`,
  ],
];

/**
 * An API message as the dashboard shows it: every refusal a page shows (a server action's
 * toast and fields, the import preview) goes through here, with the API's own words kept
 * wherever the dashboard has none of its own.
 */
export const inDashboardWords = (message: string) => {
  let said = message;
  for (const [api, words] of PHRASES) said = said.replaceAll(api, () => words);
  return said;
};
