export * from './common';
export * from './scopes';
export * from './users';
export * from './integrations';
export * from './oauth';
export * from './api-keys';
export * from './two-factor';
export * from './events';
