export * from './accounts';
export * from './users';
export * from './api-keys';
export * from './idempotency-keys';
export * from './integrations';
export * from './oauth';
