export * from './records';
export * from './list';
export * from './counts';
