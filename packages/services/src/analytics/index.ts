export { listTrackedEvents } from './list';
export { recordTrackedEvents } from './record';
export { accountStats, contentStats, statsRange } from './stats';
export { connectionsToSync, syncConnectionAnalytics } from './sync';
