export {
  publishTarget,
  publishTargets,
  type EngineOptions,
  type AttemptResult,
  type OnSettled,
} from './attempt';
export { claimTargets, type Outcome } from './claim';
export { publishMedia, type MediaSigner, type MediaSource } from './media';
export { backoffMs, verdict, type Verdict } from './policy';
export { refreshedCredentials } from './refresh';
export { refreshExpiringCredentials } from './refresh-expiring';
export {
  networkOf,
  providerContext,
  publishingSettings,
  type PublishingSettings,
} from './settings';
export { dueTargetIds, recoverAbandoned, targetNetworks } from './sweep';
export { onPublishingWake, wakePublishing } from './wake';
export { syncPublishedFigures } from './metrics';
