export * from './common';
export * from './scopes';
export * from './users';
