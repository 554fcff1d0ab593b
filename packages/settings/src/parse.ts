import { z } from 'zod';
import { dataSettings } from './data';
import { jobSettings } from './jobs';
import { serverSettings } from './server';

/** Every documented setting, declared once: its type, default and message. */
export const settingsShape = { ...serverSettings, ...dataSettings, ...jobSettings };
const schema = z.object(settingsShape);

export type SettingName = keyof typeof settingsShape;
export type Settings = z.output<typeof schema>;
type Env = Record<string, string | undefined>;

/** A message that names the setting, whatever zod said. */
const named = (issue: z.core.$ZodIssue) => {
  const name = String(issue.path[0] ?? '');
  return issue.message.includes(name) ? issue.message : `${name}: ${issue.message}`;
};

/** Parses every setting; a bad one throws, naming each bad setting on a line of its own. */
export function parseSettings(env: Env = process.env): Settings {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  throw new Error(parsed.error.issues.map(named).join('\n'));
}

/** One setting, for a package's reader that takes an env record (tests pass one). */
export function readSetting<Name extends SettingName>(name: Name, env: Env): Settings[Name] {
  const parsed = settingsShape[name].safeParse(env[name]);
  if (parsed.success) return parsed.data as Settings[Name];
  throw new Error(parsed.error.issues.map((issue) => named({ ...issue, path: [name] })).join('\n'));
}
