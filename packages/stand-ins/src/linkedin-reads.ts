import type { Answer } from './faults';
import { liError, listParam, memberWith, type LinkedInContext } from './linkedin-errors';
import type { RouteEntry } from './routes';

/**
 * What LinkedIn answers about the member and their organisations (OpenID `userinfo`,
 * `organizationAcls`, `organizations`) and about posts' figures (`socialActions` summaries,
 * `organizationalEntityShareStatistics`).
 */

function userinfo(ctx: LinkedInContext): Answer {
  const memberId = memberWith(ctx, ['profile'], 'userinfo');
  if (typeof memberId !== 'string') return memberId;
  const member = ctx.world.members.get(memberId);
  if (!member) return liError(404, 'NOT_FOUND', 'Member not found');
  const [given = '', ...family] = member.name.split(' ');
  return {
    status: 200,
    body: {
      sub: member.id,
      name: member.name,
      given_name: given,
      family_name: family.join(' '),
      picture: member.picture,
      locale: { country: 'US', language: 'en' },
    },
  };
}

/** The member's roles on organisations (`q=roleAssignee`), paged with `start` and `count`. */
function acls(ctx: LinkedInContext): Answer {
  const memberId = memberWith(
    ctx,
    ['rw_organization_admin', 'r_organization_admin'],
    'organizationAcls.FINDER-roleAssignee',
  );
  if (typeof memberId !== 'string') return memberId;
  const query = ctx.url.searchParams;
  if (query.get('q') !== 'roleAssignee')
    return liError(400, 'ILLEGAL_ARGUMENT', 'Unsupported finder');
  const role = query.get('role');
  const all = [...ctx.world.organizations.values()].flatMap((organization) => {
    const held = organization.roles.get(memberId);
    return held && (!role || role === held)
      ? [
          {
            roleAssignee: `urn:li:person:${memberId}`,
            state: 'APPROVED',
            role: held,
            organization: `urn:li:organization:${organization.id}`,
          },
        ]
      : [];
  });
  const start = Number(query.get('start') ?? 0);
  const count = Number(query.get('count') ?? 10);
  return {
    status: 200,
    body: {
      paging: { start, count, total: all.length, links: [] },
      elements: all.slice(start, start + count),
    },
  };
}

/** `GET /rest/organizations?ids=List(…)`: a Rest.li batch get. */
function organizations(ctx: LinkedInContext): Answer {
  if (!ctx.grant) return liError(401, 'EMPTY_ACCESS_TOKEN', 'Empty oauth2 access token', 65604);
  const results: Record<string, unknown> = Object.create(null);
  const errors: Record<string, unknown> = Object.create(null);
  for (const id of listParam(ctx.url.searchParams.get('ids'))) {
    const organization = ctx.world.organizations.get(id);
    if (organization) {
      results[id] = {
        id: Number(id),
        localizedName: organization.localizedName,
        vanityName: organization.vanityName,
      };
    } else {
      errors[id] = { status: 404, message: 'Not found' };
    }
  }
  return { status: 200, body: { results, statuses: {}, errors } };
}

/** Likes and comments of one post; reading a member's needs the restricted r_member_social. */
function socialActions(ctx: LinkedInContext, urn: string): Answer {
  const post = ctx.world.posts.get(urn);
  if (!post) return liError(404, 'NOT_FOUND', `${urn} not found`);
  const organization = post.author.startsWith('urn:li:organization:');
  const memberId = memberWith(
    ctx,
    [organization ? 'r_organization_social' : 'r_member_social'],
    'partnerApiSocialActions.GET',
  );
  if (typeof memberId !== 'string') return memberId;
  return {
    status: 200,
    body: {
      target: urn,
      likesSummary: {
        totalLikes: post.likes,
        aggregatedTotalLikes: post.likes,
        likedByCurrentUser: false,
      },
      commentsSummary: {
        totalFirstLevelComments: post.comments.length,
        aggregatedTotalComments: post.comments.length,
      },
    },
  };
}

/** Lifetime statistics of an organisation's posts (`shares=List(…)`, `ugcPosts=List(…)`). */
function shareStatistics(ctx: LinkedInContext): Answer {
  const memberId = memberWith(
    ctx,
    ['rw_organization_admin', 'r_organization_admin'],
    'organizationalEntityShareStatistics.FINDER-organizationalEntity',
  );
  if (typeof memberId !== 'string') return memberId;
  const entity = ctx.url.searchParams.get('organizationalEntity') ?? '';
  const organization = ctx.world.organizations.get(entity.replace('urn:li:organization:', ''));
  const role = organization?.roles.get(memberId);
  if (!organization || (role !== 'ADMINISTRATOR' && role !== 'ANALYST')) {
    return liError(
      403,
      'ACCESS_DENIED',
      'Not enough permissions to access: organizationalEntityShareStatistics.FINDER-organizationalEntity',
    );
  }
  const urns = [
    ...listParam(ctx.url.searchParams.get('shares')),
    ...listParam(ctx.url.searchParams.get('ugcPosts')),
  ];
  const elements = urns.flatMap((urn) => {
    const post = ctx.world.posts.get(urn);
    if (!post || post.author !== entity) return [];
    const totalShareStatistics = {
      impressionCount: post.impressions,
      uniqueImpressionsCount: post.impressions,
      clickCount: post.clicks,
      likeCount: post.likes,
      commentCount: post.comments.length,
      shareCount: post.shares,
      engagement: post.impressions
        ? (post.clicks + post.likes + post.comments.length + post.shares) / post.impressions
        : 0,
    };
    return [
      {
        organizationalEntity: entity,
        [urn.startsWith('urn:li:share:') ? 'share' : 'ugcPost']: urn,
        totalShareStatistics,
      },
    ];
  });
  return {
    status: 200,
    body: { paging: { start: 0, count: elements.length, links: [] }, elements },
  };
}

export const linkedinReadRoutes: RouteEntry<LinkedInContext>[] = [
  ['GET', /^\/v2\/userinfo$/, userinfo],
  ['GET', /^\/rest\/organizationAcls$/, acls],
  ['GET', /^\/rest\/organizations$/, organizations],
  [
    'GET',
    /^\/rest\/socialActions\/([^/]+)$/,
    (ctx, match) => socialActions(ctx, decodeURIComponent(match[1] ?? '')),
  ],
  ['GET', /^\/rest\/organizationalEntityShareStatistics$/, shareStatistics],
];
