export * from './errors';
export * from './idempotency';
export * from './ids';
export * from './pagination';
