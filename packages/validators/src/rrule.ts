import * as rruleModule from 'rrule';

/**
 * The `rrule` library, whichever way it was loaded: it ships CommonJS for Node, whose ES module
 * import then sees only a default export, and ES modules for bundlers, which see the names.
 */
const lib = ((rruleModule as { default?: typeof rruleModule }).default ??
  rruleModule) as typeof rruleModule;

export const { RRule } = lib;
export type RRule = rruleModule.RRule;
