import { INTEGRATION_PREFIX } from './jobs';
import type { SettingName, Settings } from './parse';

/**
 * What every Node process needs whatever it does: where programs and temporary files are,
 * the locale and time zone, Node's own options. Nothing here is a secret.
 */
const BASICS = [
  'PATH',
  'HOME',
  'USER',
  'TMPDIR',
  'LANG',
  'LC_ALL',
  'TZ',
  'NODE_OPTIONS',
  'NODE_EXTRA_CA_CERTS',
];

/**
 * A child process's whole environment: the basics from `env`, the named settings as parsed
 * (written back as text), the provider settings when asked, NODE_ENV, and `extra` (what the
 * parent decided). A child so started gets no variable by accident: a secret
 * reaches only the processes that name it.
 */
export function childEnv(opts: {
  env: Record<string, string | undefined>;
  settings: Settings;
  names: readonly SettingName[];
  integrations?: boolean;
  nodeEnv: 'development' | 'production';
  extra?: Record<string, string | undefined>;
}): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { NODE_ENV: opts.nodeEnv };
  const put = (name: string, value: unknown) => {
    if (value !== undefined) out[name] = String(value);
  };
  for (const name of BASICS) put(name, opts.env[name]);
  for (const name of opts.names) put(name, opts.settings[name]);
  if (opts.integrations) {
    for (const [name, value] of Object.entries(opts.env))
      if (name.startsWith(INTEGRATION_PREFIX)) put(name, value);
  }
  for (const [name, value] of Object.entries(opts.extra ?? {})) put(name, value);
  return out;
}
