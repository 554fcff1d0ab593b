export * from './accounts';
export * from './users';
export * from './api-keys';
