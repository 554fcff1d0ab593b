export * from './authenticate';
export * from './password';
export * from './principal';
export * from './tokens';
export * from './totp';
