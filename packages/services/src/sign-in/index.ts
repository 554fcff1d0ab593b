export * from './dashboard-login';
export * from './sessions';
export * from './throttle';
export * from './two-factor';
