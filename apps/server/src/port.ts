import { createServer } from 'node:net';

/**
 * Refuses a port another process holds, before anything is built, started or announced:
 * listening on it the way src/serve.ts will (every interface), then letting it go.
 */
export async function assertPortFree(port: string) {
  const probe = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen(Number(port), resolve);
    });
  } catch (error) {
    throw new Error(portProblem(port, error));
  }
  await new Promise((resolve) => probe.close(resolve));
}

/** What a failure to listen on `port` means, in words a user can act on. */
export function portProblem(port: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE')
    return `Port ${port} is already in use: stop what is using it, or choose another with PORT (e.g. PORT=3001 npm start).`;
  if (code === 'EACCES')
    return `Port ${port} needs privileges this user does not have: choose another with PORT (e.g. PORT=3000).`;
  return `Cannot listen on port ${port}: ${error instanceof Error ? error.message : String(error)}`;
}
