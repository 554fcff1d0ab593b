import type { JobDefinition } from './definition';

/**
 * Every kind of background work the worker runs. Each area adds its definitions here (one
 * file per job, beside this one).
 */
export const JOB_DEFINITIONS: JobDefinition[] = [];
