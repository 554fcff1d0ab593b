export { INTEGRATION_PREFIX, WEBHOOK_ATTEMPT_TIMEOUT_SECONDS } from './jobs';
export {
  parseSettings,
  readSetting,
  settingsShape,
  type SettingName,
  type Settings,
} from './parse';
export { childEnv } from './child-env';
