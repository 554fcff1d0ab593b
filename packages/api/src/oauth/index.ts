export {
  createOAuthEndpoints,
  issuerFor,
  requestOrigin,
  type OAuthEndpointsOptions,
} from './endpoints';
export { clientCredentials, readParams } from './request';
