import { answering, FaultSwitches, pathOf, type Answer, type Fault } from './faults';
import { startStandIn, type StandIn } from './http-kit';
import { liError, objectField, type LinkedInContext } from './linkedin-errors';
import { linkedinMediaRoutes, type LinkedInMediaLimits } from './linkedin-media';
import { linkedinOAuthRoutes, type LinkedInApp } from './linkedin-oauth';
import { linkedinPostRoutes, type LinkedInPostLimits } from './linkedin-posts';
import { linkedinReadRoutes } from './linkedin-reads';
import { LinkedInWorld, type LinkedInPost, type LinkedInUpload } from './linkedin-world';
import { bearerToken } from './params';
import { findRoute } from './routes';

/**
 * LinkedIn's APIs on loopback, following its documentation (learn.microsoft.com/linkedin): the
 * versioned REST API under `/rest` (every call with `LinkedIn-Version: YYYYMM` of the last
 * year and `X-Restli-Protocol-Version: 2.0.0`), OpenID `userinfo` under `/v2`, upload URLs,
 * and OAuth under `/oauth/v2`. Errors are `{ status, serviceErrorCode, code, message }`; a
 * token is refused as invalid (65600), revoked (65601) or expired (65602).
 */

export interface LinkedInStandInOptions
  extends Partial<LinkedInMediaLimits>, Partial<LinkedInPostLimits> {
  app?: LinkedInApp;
}

/** What a member's consent grants by default: the catalogue's "Sign in" and "Share" scopes. */
export const LINKEDIN_MEMBER_SCOPES = ['openid', 'profile', 'email', 'w_member_social'];
/** Added by the Community Management API: posting as, reading and administering organisations. */
export const LINKEDIN_ORGANIZATION_SCOPES = [
  'w_organization_social',
  'r_organization_social',
  'rw_organization_admin',
];

export interface LinkedInStandIn extends StandIn {
  /** The first member, with a token of `LINKEDIN_MEMBER_SCOPES` and organisation scopes. */
  member: { id: string; urn: string; token: string; refreshToken: string };
  app: LinkedInApp;
  addMember(
    name: string,
    scopes?: string[],
  ): { id: string; urn: string; token: string; refreshToken: string };
  /** An organisation and its members' page roles (`ADMINISTRATOR`, `ANALYST`…); its URN. */
  addOrganization(name: string, roles: [memberId: string, role: string][]): string;
  revoke(token: string): void;
  expire(token: string): void;
  /** The member who approves at `/oauth/v2/authorization` (the first by default). */
  approveAs(memberId: string, scopes?: string[]): void;
  faults: FaultSwitches;
  /** Every post created, in order, with its media. */
  published(): (LinkedInPost & { media: LinkedInUpload[] })[];
  asset(urn: string): LinkedInUpload | undefined;
  /** Sets a post's figures, as people reacting to it would. */
  engage(
    urn: string,
    figures: Partial<Pick<LinkedInPost, 'likes' | 'shares' | 'impressions' | 'clicks'>>,
  ): void;
}

/** LinkedIn's answers to faults tests switch on. */
export const linkedinFaults = {
  rateLimited: (): Fault => ({
    kind: 'answer',
    answer: liError(
      429,
      'TOO_MANY_REQUESTS',
      'Resource level throttle APPLICATION DAY limit for calls to this resource is reached.',
      101,
    ),
  }),
  unavailable: (): Fault => ({
    kind: 'answer',
    answer: liError(503, 'SERVICE_UNAVAILABLE', 'Service Unavailable'),
  }),
  gatewayTimeout: (): Fault => ({
    kind: 'answer',
    answer: liError(504, 'GATEWAY_TIMEOUT', 'Gateway Timeout'),
  }),
  rejected: (message: string): Fault => ({
    kind: 'answer',
    answer: liError(422, 'UNPROCESSABLE_ENTITY', message),
  }),
};

/** `YYYYMM` versions are served for a year after their release. */
function versionProblem(version: string | undefined, now = new Date()): Answer | undefined {
  if (!version) {
    return liError(
      400,
      'VERSION_MISSING',
      'A version must be present. Please specify a version by adding the LinkedIn-Version header.',
    );
  }
  const match = /^(\d{4})(\d{2})$/.exec(version);
  const months = match ? Number(match[1]) * 12 + Number(match[2]) - 1 : NaN;
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
  if (!(months <= current && months > current - 12)) {
    return liError(426, 'NONEXISTENT_VERSION', `Requested version ${version} is not active`);
  }
  return undefined;
}

function tokenProblem(world: LinkedInWorld, token: string | undefined): Answer | undefined {
  if (!token) return undefined;
  const grant = world.grants.get(token);
  if (!grant) return liError(401, 'INVALID_ACCESS_TOKEN', 'Invalid access token', 65600);
  if (grant.revoked)
    return liError(
      401,
      'REVOKED_ACCESS_TOKEN',
      'The token used in the request has been revoked by the user',
      65601,
    );
  if (grant.expiresAt <= Date.now())
    return liError(401, 'EXPIRED_ACCESS_TOKEN', 'The token used in the request has expired', 65602);
  return undefined;
}

export async function startLinkedInStandIn(
  options: LinkedInStandInOptions = {},
): Promise<LinkedInStandIn> {
  const app = options.app ?? { clientId: 'chorus-linkedin', clientSecret: 'linkedin-secret' };
  const faults = new FaultSwitches();
  let world = new LinkedInWorld('');
  let approver = {
    memberId: '',
    scopes: [...LINKEDIN_MEMBER_SCOPES, ...LINKEDIN_ORGANIZATION_SCOPES],
  };
  const routes = [
    ...linkedinReadRoutes,
    ...linkedinPostRoutes({
      maxCommentary: options.maxCommentary ?? 3000,
      maxComment: options.maxComment ?? 1250,
      postsPerDay: options.postsPerDay ?? 150,
    }),
    ...linkedinMediaRoutes({
      videoPartBytes: options.videoPartBytes ?? 4 * 1024 * 1024,
      videoProcessingPolls: options.videoProcessingPolls ?? 1,
      maxVideoBytes: options.maxVideoBytes ?? 500 * 1024 * 1024,
    }),
    ...linkedinOAuthRoutes(app, () => approver),
  ];

  const server = await startStandIn(
    answering(faults, (req, raw) => {
      const url = new URL(req.url ?? '/', world.baseUrl);
      const path = pathOf(req);
      const token = path.startsWith('/oauth/') ? undefined : bearerToken(req);
      const refused =
        tokenProblem(world, token) ??
        (path.startsWith('/rest/')
          ? versionProblem(req.headers['linkedin-version'] as string | undefined)
          : undefined);
      if (refused) return refused;
      if (path.startsWith('/rest/') && req.headers['x-restli-protocol-version'] !== '2.0.0') {
        return liError(400, 'ILLEGAL_ARGUMENT', 'X-Restli-Protocol-Version 2.0.0 is required');
      }
      let json: Record<string, unknown> | undefined;
      if ((req.headers['content-type'] ?? '').startsWith('application/json') && raw.length > 0) {
        try {
          json = objectField(
            JSON.parse(raw.toString('utf8'), (key, value) =>
              key === '__proto__' ? undefined : value,
            ),
          );
        } catch {
          return liError(400, 'ILLEGAL_ARGUMENT', 'The request body is not valid JSON');
        }
      }
      const ctx: LinkedInContext = {
        req,
        url,
        json,
        raw,
        grant: token ? world.grants.get(token) : undefined,
        world,
      };
      const handler = findRoute(routes, req.method ?? 'GET', path);
      return handler ? handler(ctx) : liError(404, 'NOT_FOUND', `No resource at ${path}`);
    }),
  );

  world = new LinkedInWorld(server.url);
  const addMember = (
    name: string,
    scopes = [...LINKEDIN_MEMBER_SCOPES, ...LINKEDIN_ORGANIZATION_SCOPES],
  ) => {
    const { member, token, refreshToken } = world.addMember(name, scopes);
    return { id: member.id, urn: `urn:li:person:${member.id}`, token, refreshToken };
  };
  const member = addMember('Ada Lovelace');
  approver = { ...approver, memberId: member.id };

  return {
    ...server,
    member,
    app,
    addMember,
    addOrganization: (name, roles) => world.addOrganization(name, roles),
    revoke(token) {
      const grant = world.grants.get(token);
      if (grant) grant.revoked = true;
    },
    expire(token) {
      const grant = world.grants.get(token);
      if (grant) grant.expiresAt = Date.now() - 1000;
    },
    approveAs(memberId, scopes = approver.scopes) {
      approver = { memberId, scopes };
    },
    faults,
    published: () =>
      [...world.posts.values()].map((post) => {
        const ids =
          post.content?.multiImage?.images.map((image) => image.id) ??
          (post.content?.media ? [post.content.media.id] : []);
        return { ...post, media: ids.flatMap((id) => world.uploads.get(id) ?? []) };
      }),
    asset: (urn) => world.uploads.get(urn),
    engage(urn, figures) {
      const post = world.posts.get(urn);
      if (!post) throw new Error(`no post ${urn}`);
      Object.assign(post, figures);
    },
  };
}
