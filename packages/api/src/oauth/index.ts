export {
  createOAuthEndpoints,
  issuerFor,
  requestOrigin,
  type OAuthEndpointsOptions,
} from './endpoints';
export { oauthMounts } from './mounts';
export { clientCredentials, readParams } from './request';
