export {
  authorizationRedirect,
  issueAuthorizationCode,
  mayAuthorize,
  validateAuthorizeRequest,
  type AuthorizationRequest,
  type AuthorizeOutcome,
} from './authorize';
export { listAuthorizedApps, revokeAuthorizedApp } from './authorized-apps';
export {
  authenticateClient,
  createOAuthClient,
  deleteOAuthClient,
  findOAuthClient,
  listOAuthClients,
  rotateOAuthClientSecret,
  toOAuthClient,
  type ClientCredentials,
  type OAuthClientRow,
} from './clients';
export { OAuthError, type OAuthErrorCode } from './errors';
export { introspectToken, type IntrospectionResponse } from './introspection';
export {
  ACCESS_TOKEN_TTL_SECONDS,
  CODE_TTL_MS,
  grantLifetimeMs,
  REFRESH_TOKEN_TTL_MS,
} from './lifetimes';
export { authorizationServerMetadata } from './metadata';
export { revokeToken } from './revocation';
export { formatScope, parseScope } from './scopes';
export {
  exchangeAuthorizationCode,
  grantTokens,
  refreshAccessToken,
  revokeGrant,
  type TokenResponse,
} from './tokens';
