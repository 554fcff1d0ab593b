export { INTEGRATION_PREFIX } from './jobs';
export {
  parseSettings,
  readSetting,
  settingsShape,
  type SettingName,
  type Settings,
} from './parse';
export { childEnv } from './child-env';
