/** /proc's view of processes (Linux), for the tests of how `npm start` runs its processes. */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** A file of /proc, or '' when what it described has gone meanwhile. */
const read = (path: string, as: 'file' | 'link' = 'file') => {
  try {
    return as === 'file' ? readFileSync(path, 'utf8') : readlinkSync(path);
  } catch {
    return '';
  }
};

/** The fields of /proc/PID/stat after the command's name: state, parent, process group, … */
const statFields = (pid: number) => {
  const stat = read(`/proc/${pid}/stat`);
  return stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
};

/** A process's parent, process group, command line and sockets (0 or '' once it is gone). */
export const proc = {
  /** Every process's id. */
  all: () =>
    readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .map(Number),
  parent: (pid: number) => Number(statFields(pid)[1] ?? 0),
  group: (pid: number) => Number(statFields(pid)[2] ?? 0),
  commandLine: (pid: number) => read(`/proc/${pid}/cmdline`),
  /** The inodes of the sockets the process holds open. */
  sockets: (pid: number) =>
    readdirSync(`/proc/${pid}/fd`)
      .map((fd) => /^socket:\[(\d+)\]$/.exec(read(`/proc/${pid}/fd/${fd}`, 'link'))?.[1])
      .filter((inode): inode is string => inode !== undefined),
};

const descendsFrom = (pid: number, ancestor: number) => {
  for (let at = pid; at > 1; at = proc.parent(at)) if (at === ancestor) return true;
  return false;
};

/** The process running `script` among those `ancestor` started. */
export const processRunning = (script: string, ancestor: number) =>
  proc.all().find((pid) => proc.commandLine(pid).includes(script) && descendsFrom(pid, ancestor));
