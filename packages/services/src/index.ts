// One folder per area; shared/ holds what every area uses (errors, ids, pages, idempotency).
export * from './shared';
export * from './accounts';
export * from './users';
export * from './sign-in';
export * from './api-keys';
export * from './oauth';
export * from './integrations';
export * from './posts';
export * from './posts-io';
export * from './media';
export * from './analytics';
export * from './events/record';
export * from './webhooks';
export * from './publishing';
