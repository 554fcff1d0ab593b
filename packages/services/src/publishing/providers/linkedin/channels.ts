import { z } from 'zod';
import { NetworkError } from '../../http';
import type { DiscoveredChannel, ProviderContext, ProviderCredentials } from '../../provider';
import { linkedinApi, restliList } from './api';

/**
 * The member (OpenID `userinfo`) and the organisations they may post for: their approved
 * roles from `organizationAcls` (ADMINISTRATOR, CONTENT_ADMINISTRATOR or
 * DIRECT_SPONSORED_CONTENT_POSTER, who may post with w_organization_social), named by a batch
 * get of `organizations`. A grant without the organisation scopes has the member alone.
 */

const POSTER_ROLES = new Set([
  'ADMINISTRATOR',
  'CONTENT_ADMINISTRATOR',
  'DIRECT_SPONSORED_CONTENT_POSTER',
]);
const PAGE = 100;

const ZUserinfo = z.object({ sub: z.string(), name: z.string(), picture: z.string().optional() });
const ZAcls = z.object({
  elements: z.array(
    z.object({ role: z.string(), state: z.string().optional(), organization: z.string() }),
  ),
  paging: z.object({ total: z.number().optional() }).optional(),
});
const ZOrganizations = z.object({
  results: z.record(
    z.string(),
    z.object({ localizedName: z.string(), vanityName: z.string().optional() }),
  ),
});

async function organizationUrns(api: ReturnType<typeof linkedinApi>): Promise<string[]> {
  const urns = new Set<string>();
  for (let start = 0; ; start += PAGE) {
    let page;
    try {
      page = ZAcls.parse(
        await api.get(
          `/rest/organizationAcls?q=roleAssignee&state=APPROVED&start=${start}&count=${PAGE}`,
        ),
      );
    } catch (error) {
      // Without rw_organization_admin the member's roles cannot be read: no organisations.
      if (error instanceof NetworkError && error.details.status === 403) return [];
      throw error;
    }
    for (const acl of page.elements) {
      if (POSTER_ROLES.has(acl.role) && (acl.state ?? 'APPROVED') === 'APPROVED')
        urns.add(acl.organization);
    }
    if (page.elements.length < PAGE) return [...urns];
  }
}

export async function discoverLinkedInChannels(
  credentials: ProviderCredentials,
  context: ProviderContext,
): Promise<DiscoveredChannel[]> {
  const api = linkedinApi(context, credentials.accessToken);
  const me = ZUserinfo.parse(await api.get('/v2/userinfo'));
  const member: DiscoveredChannel = {
    externalId: `urn:li:person:${me.sub}`,
    name: me.name,
    // OpenID gives no public handle; the name is how people find a member.
    handle: me.name,
    avatarUrl: me.picture ?? null,
    kind: 'profile',
  };
  const urns = await organizationUrns(api);
  if (urns.length === 0) return [member];
  const ids = urns.map((urn) => urn.replace('urn:li:organization:', ''));
  const { results } = ZOrganizations.parse(
    await api.get(`/rest/organizations?ids=${restliList(ids)}`),
  );
  const organizations = ids.flatMap((id): DiscoveredChannel[] => {
    const organization = results[id];
    if (!organization) return [];
    return [
      {
        externalId: `urn:li:organization:${id}`,
        name: organization.localizedName,
        handle: organization.vanityName ?? organization.localizedName,
        avatarUrl: null,
        kind: 'organization',
      },
    ];
  });
  return [member, ...organizations];
}
