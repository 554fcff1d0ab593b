import type {
  Integration,
  IntegrationCategory,
  IntegrationDetail,
  IntegrationStatus,
} from '@chorus/validators';
import { notFound } from '../shared/errors';
import { CATALOGUE, findEntry, type CatalogueEntry } from './catalogue';
import { appOrigin } from './settings';

export const connectPath = (id: string) => `/api/integrations/connect/${id}`;
export const callbackPath = (id: string) => `/api/integrations/callback/${id}`;

/** The catalogue entry, or 404: an unknown id (malformed ones included) does not exist. */
export function requireEntry(integrationId: string): CatalogueEntry {
  const entry = findEntry(integrationId);
  if (!entry) throw notFound('Integration');
  return entry;
}

/** Icons are served by the web app from `public/integrations/<id>.svg`. */
const toIntegration = (entry: CatalogueEntry, origin: string): Integration => ({
  id: entry.id,
  name: entry.name,
  type: entry.type,
  description: entry.description,
  status: entry.status,
  icon: `${appOrigin(origin)}/integrations/${entry.id}.svg`,
});

const toDetail = (entry: CatalogueEntry, origin: string): IntegrationDetail => ({
  ...toIntegration(entry, origin),
  authMethod: entry.authMethod,
  scopes: entry.authMethod === 'oauth2' ? entry.scopes : [],
  endpoints: {
    authorize: connectPath(entry.id),
    callback: entry.authMethod === 'oauth2' ? callbackPath(entry.id) : null,
  },
  setupSteps: entry.setupSteps,
});

export function listIntegrations(opts: {
  origin: string;
  category?: IntegrationCategory;
  status?: IntegrationStatus;
}) {
  const { origin, category, status } = opts;
  const entries = CATALOGUE.filter(
    (entry) => (!category || entry.type === category) && (!status || entry.status === status),
  );
  return { data: entries.map((entry) => toIntegration(entry, origin)) };
}

export function getIntegration(opts: { origin: string; integrationId: string }) {
  return toDetail(requireEntry(opts.integrationId), opts.origin);
}
