// The embedded database's directory has one user at a time. PGlite is PostgreSQL running inside the
// process: a second process opening the same files (a second npm start, npm run db:reset or an import
// while the server runs) writes pages the first one has cached, and the directory ends up unusable
// while the first keeps answering from stale memory. So every process that opens a PGlite directory
// first takes the lock file `esports-platform.lock` inside it, and a second one refuses to start with
// one sentence naming the holder. No command shares it, reads included: opening PGlite replays the
// write-ahead log and writes to the files itself.
//
// - The lock is created atomically, with its content, by link(2) of a finished temporary file: it is
//   never seen half-written, and of two processes only one creates it.
// - It names the directory, the holder's pid, the command, when it started, and the process's start
//   time as the kernel reports it (/proc/<pid>/stat, else `ps`): a lock whose pid no longer runs, or
//   now belongs to another program (pid reuse after a crash or a reboot), or that was copied with the
//   files of another directory, is stale and taken over. Two processes taking over the same stale lock
//   are serialised by a second, short-lived file (`….takeover`) naming its holder, and each replaces
//   the lock only if it is still the very text it judged stale.
// - A process holds the lock while any of its databases on the directory is open, and always until it
//   exits (an 'exit' hook removes it; after a SIGKILL it is stale and the next process takes it over).
// - npm start hands the directory to a migration child process and takes it back: it keeps holding the
//   lock meanwhile and passes the child a token in its environment (handOverEnv), so the child works
//   under its parent's lock and no other process can slip in between.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, realpathSync, statSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { StartupError } from '../startup.ts';

export const LOCK_FILE = 'esports-platform.lock';
/** Set by a process for the child it hands its directory to (never by hand). */
export const HANDOVER_ENV = 'PGLITE_LOCK_HANDOVER';

interface LockContent {
  /** The directory it locks: a lock copied along with the directory's files does not lock the copy. */
  dir?: string;
  pid: number;
  command: string;
  startedAt: string;
  /** The kernel's start time of the process: tells a live holder from a reused pid. */
  processStart: string | null;
  host: string;
  /** Proves a hand-over: the child presents it from its environment. */
  token: string;
}

export interface DataDirHold {
  /** Ends this hold; the lock goes when the process's last hold on the directory does. */
  release(): void;
  /** Environment for a child process that works on the directory under this process's lock. */
  handOverEnv(): Record<string, string>;
}

interface Held {
  dir: string;
  lockPath: string;
  count: number;
  /** Ours to remove; false when working under a parent's lock. */
  owned: boolean;
  token: string;
}

/** The directory is in use by another live process. */
export class DataDirInUse extends StartupError {
  constructor(
    readonly dir: string,
    readonly holder: LockContent,
  ) {
    const where = holder.host && holder.host !== hostname() ? ` on ${holder.host}` : '';
    super(
      `The embedded database in ${dir} is in use by process ${holder.pid}${where} (${holder.command}, since ${holder.startedAt}): PGlite lets one process open it at a time, so stop that process first or set PGLITE_DATA_DIR to another directory.`,
    );
  }
}

const held = new Map<string, Held>();
let exitHookInstalled = false;

/** Takes (or joins this process's hold on) the lock of a PGlite directory, creating the directory. */
export function holdDataDir(dataDir: string): DataDirHold {
  mkdirSync(dataDir, { recursive: true });
  const dir = realpathSync(dataDir);
  let entry = held.get(dir);
  if (!entry) {
    entry = acquire(dir);
    held.set(dir, entry);
    installExitHook();
  }
  entry.count++;
  const current = entry;
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      if (--current.count > 0) return;
      held.delete(dir);
      if (current.owned) removeIfOurs(current);
    },
    handOverEnv: () => ({ [HANDOVER_ENV]: current.token }),
  };
}

function acquire(dir: string): Held {
  const lockPath = path.join(dir, LOCK_FILE);
  const inherited = process.env[HANDOVER_ENV];
  const mine: LockContent = {
    dir,
    pid: process.pid,
    command: commandName(),
    startedAt: new Date().toISOString(),
    processStart: processStartOf(process.pid),
    host: hostname(),
    token: randomBytes(16).toString('hex'),
  };
  for (let attempt = 0; attempt < 100; attempt++) {
    if (create(lockPath, mine)) return { dir, lockPath, count: 0, owned: true, token: mine.token };
    // The text judged is the text a takeover may replace: never a lock read again later, which another
    // process may have taken over meanwhile.
    const raw = rawOf(lockPath);
    if (raw === null) continue;
    const found = parse(raw);
    if (found !== 'unreadable') {
      // Our parent's lock, handed to us for its migration step.
      if (inherited && found.token === inherited && found.pid === process.ppid) return { dir, lockPath, count: 0, owned: false, token: found.token };
      if ((found.dir === undefined || found.dir === dir) && isRunning(found)) throw new DataDirInUse(dir, found);
    } else if (ageMs(lockPath) < 2_000) {
      // Not ours to judge yet: a lock file is only unreadable while a writer without link(2) fills it.
      pause(20);
      continue;
    }
    if (takeOver(lockPath, raw, mine)) return { dir, lockPath, count: 0, owned: true, token: mine.token };
    pause(20);
  }
  throw new StartupError(`Could not lock the embedded database in ${dir}: its lock file ${lockPath} keeps changing; is another process starting on it?`);
}

/** Creates the lock with its content in one step; false when a lock exists. */
function create(lockPath: string, content: LockContent): boolean {
  const text = `${JSON.stringify(content)}\n`;
  const temporary = `${lockPath}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temporary, text, { flag: 'wx' });
  try {
    linkSync(temporary, lockPath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    // File systems without hard links: an exclusive create, written at once.
    if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    let fd: number;
    try {
      fd = openSync(lockPath, 'wx');
    } catch (inner) {
      if ((inner as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw inner;
    }
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
    return true;
  } finally {
    try {
      unlinkSync(temporary);
    } catch {
      // already gone
    }
  }
}

function read(lockPath: string): LockContent | 'missing' | 'unreadable' {
  const raw = rawOf(lockPath);
  return raw === null ? 'missing' : parse(raw);
}

function parse(text: string): LockContent | 'unreadable' {
  try {
    const parsed = JSON.parse(text) as LockContent;
    return Number.isInteger(parsed?.pid) && parsed.pid > 0 ? parsed : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

const rawOf = (lockPath: string) => {
  try {
    return readFileSync(lockPath, 'utf8');
  } catch {
    return null;
  }
};

/**
 * Replaces the stale lock `stale` (the text that was judged). Only one process at a time may do it
 * (the `.takeover` guard, which names its holder): under the guard it checks that the lock is still
 * that text, so it never removes a lock another process has just taken. A guard is only removed when
 * the process it names no longer runs (it died within it), never for being slow: on a loaded machine
 * a live holder may wait seconds between two system calls.
 */
function takeOver(lockPath: string, stale: string, mine: LockContent): boolean {
  const guard = `${lockPath}.takeover`;
  const guardText = JSON.stringify({ pid: mine.pid, processStart: mine.processStart });
  try {
    writeFileSync(guard, guardText, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    removeDeadGuard(guard);
    return false;
  }
  try {
    if (rawOf(lockPath) !== stale) return false;
    removeFile(lockPath);
    return create(lockPath, mine);
  } finally {
    removeFile(guard);
  }
}

function removeDeadGuard(guard: string): void {
  const text = rawOf(guard);
  if (text === null) return;
  const holder = guardHolder(text);
  // A guard of an earlier version (a bare pid), or half-written, is judged by its age alone.
  const dead = holder ? !isRunning(holder) : ageMs(guard) > 10_000;
  // The same guard still: not one another process has just created in its place.
  if (dead && rawOf(guard) === text) removeFile(guard);
}

function guardHolder(text: string): Pick<LockContent, 'pid' | 'processStart'> | null {
  try {
    const { pid, processStart } = JSON.parse(text) as Partial<LockContent>;
    return Number.isInteger(pid) && (pid as number) > 0 ? { pid: pid as number, processStart: typeof processStart === 'string' ? processStart : null } : null;
  } catch {
    return null;
  }
}

/** Whether the lock's holder still runs: its pid is alive and is the same process (same start time). */
function isRunning(holder: Pick<LockContent, 'pid' | 'processStart'>): boolean {
  // This process's own locks are in `held`: one naming our pid was left by an earlier process that had
  // it (containers start their programs with the same small pids every time).
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: alive, but another user's.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const now = processStartOf(holder.pid);
  // When the start time cannot be read (no /proc, no ps), a live pid counts as the holder.
  return now === null || holder.processStart === null || now === holder.processStart;
}

/** The kernel's start time of a process, as a string to compare; null when it cannot be read. */
export function processStartOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses); starttime is field 22.
    return `proc:${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]}`;
  } catch {
    // No /proc (macOS, BSD): ask ps.
  }
  try {
    const started = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return started ? `ps:${started}` : null;
  } catch {
    return null;
  }
}

/**
 * What the holder was started as: `npm start` or `npm run db:reset` when this process is that npm
 * script's own program (npm's variables are inherited by every descendant), else its node command line.
 */
function commandName(): string {
  const script = process.env.npm_lifecycle_event;
  const entry = process.argv[1] ? path.basename(process.argv[1]) : '';
  if (script && entry && (process.env.npm_lifecycle_script ?? '').includes(entry)) {
    return script === 'start' || script === 'test' ? `npm ${script}` : `npm run ${script}`;
  }
  return ['node', entry, ...process.argv.slice(2)].filter(Boolean).join(' ').slice(0, 200);
}

function removeIfOurs(entry: Held): void {
  const found = read(entry.lockPath);
  if (typeof found === 'object' && found.token === entry.token) removeFile(entry.lockPath);
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Runs on process.exit() and a normal end; a signal that kills the process leaves a stale lock.
  process.on('exit', () => {
    for (const entry of held.values()) if (entry.owned) removeIfOurs(entry);
    held.clear();
  });
}

function removeFile(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // gone already
  }
}

function ageMs(file: string): number {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return Infinity;
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
const pause = (ms: number) => Atomics.wait(sleeper, 0, 0, ms);
