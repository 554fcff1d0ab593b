export * from './accounts';
export * from './api-keys';
export * from './errors';
export * from './idempotency';
export * from './ids';
export * from './users';
export * from './integrations';
