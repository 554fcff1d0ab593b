import { readFile, rm, writeFile } from 'node:fs/promises';

/** The file by which a running Chorus server announces the embedded database it serves. */
const lockPath = (dataDir: string) => `${dataDir}/embedded-server.json`;

interface EmbeddedServerInfo {
  pid: number;
  url: string;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The embedded server holding `dataDir`, if one is running; a stale lock is removed. */
export async function readEmbeddedServer(dataDir: string): Promise<EmbeddedServerInfo | null> {
  let info: EmbeddedServerInfo;
  try {
    info = JSON.parse(await readFile(lockPath(dataDir), 'utf8')) as EmbeddedServerInfo;
  } catch {
    return null;
  }
  if (isAlive(info.pid)) return info;
  await rm(lockPath(dataDir), { force: true });
  return null;
}

export const writeEmbeddedLock = (dataDir: string, url: string) =>
  writeFile(lockPath(dataDir), JSON.stringify({ pid: process.pid, url }), { mode: 0o600 });

export const removeEmbeddedLock = (dataDir: string) => rm(lockPath(dataDir), { force: true });
