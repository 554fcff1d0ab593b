export * from './create';
export * from './settings';
