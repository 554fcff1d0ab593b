export { issuerFor, requestOrigin, type OAuthEndpointsOptions } from './endpoints';
export { createOAuthEndpoints, type OAuthDoorOptions } from './door';
export { oauthMounts } from './mounts';
export { clientCredentials, readParams } from './request';
