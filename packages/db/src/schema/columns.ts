import { timestamp } from 'drizzle-orm/pg-core';

/** Every timestamp: with time zone and millisecond precision, as the API shows them (docs/api.md). */
export const timestamptz = () => timestamp({ withTimezone: true, precision: 3 });
