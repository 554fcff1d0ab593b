export { CATALOGUE, type CatalogueEntry } from './catalogue';
export { completeOAuthCallback } from './callback';
export { assertConnectable, connectIntegration, DEFAULT_RETURN_PATH } from './connect';
export {
  disconnectIntegration,
  listConnectedIntegrations,
  sealConnectionCredentials,
  storeConnection,
} from './connections';
export { getIntegration, listIntegrations } from './listing';
export { STATE_TTL_MS } from './oauth-states';
export { appOrigin, integrationConfigReport, readEncryptionKey } from './settings';
