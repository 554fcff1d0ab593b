export * from './length';
export * from './networks';
export * from './check';
export * from './channels';
export * from './slots';
