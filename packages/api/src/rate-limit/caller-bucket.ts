import type { Principal } from '@chorus/auth';
import { clientIp } from './client-ip';
import { anonymousBucket, principalBucket, type Bucket, type RateLimits } from './limits';

/**
 * The budget a request counts against, for every door and the web app's server actions: its
 * caller's (reads and writes apart), else its client address's.
 */
export const callerBucket = (
  req: Request,
  principal: Principal | null,
  limits: RateLimits,
): Bucket =>
  principal
    ? principalBucket(principal, req.method, limits)
    : anonymousBucket(clientIp(req), limits);
