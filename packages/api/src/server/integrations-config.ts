import { integrationConfigReport } from '@chorus/services';
import { log } from './logger';

/**
 * For the start script, before serving: a configuration that cannot work (no encryption key
 * in production, a malformed provider URL) stops start-up with a message naming the setting;
 * one that is merely unwise (the development key) is logged as a warning.
 */
export function assertIntegrationConfig(
  env: Record<string, string | undefined> = process.env,
): void {
  const { errors, warnings } = integrationConfigReport(env);
  for (const message of warnings) log('warn', message);
  if (errors.length > 0) {
    throw new Error(`Invalid integrations configuration:\n- ${errors.join('\n- ')}`);
  }
}
