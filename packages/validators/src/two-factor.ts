import { z } from 'zod';

/** A TOTP code as an authenticator app shows it. */
export const ZTotpCode = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app.'),
});
