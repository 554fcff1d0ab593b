export { createOAuthEndpoints, issuerFor, type OAuthEndpointsOptions } from './endpoints';
export { clientCredentials, readParams } from './request';
