export * from './definition';
export { jobDefinitions } from './definitions';
export * from './worker';
export { runWorker } from './run';
export * from './publish-due-posts';
export * from './sync-analytics';
export * from './deliver-webhooks';
export * from './publish-targets';
export * from './refresh-tokens';
