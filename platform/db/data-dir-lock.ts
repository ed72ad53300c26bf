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
// - It names the directory (its path, and its device and inode: the same directory reached by another
//   path, a bind mount or a rename, is the same one), the holder's pid, host, command, when it started,
//   and the process's start time as the kernel reports it (/proc/<pid>/stat, else `ps`). A lock whose
//   pid no longer runs, or now belongs to another program (pid reuse after a crash or a reboot), or
//   that was copied with the files of another directory, is stale and taken over. Pids of another
//   host (a container sharing the volume) cannot be looked up: its holder renews the lock's mtime
//   every few seconds, and a lock of another host not renewed for RENEWAL_STALE_MS is stale.
// - Two processes taking over the same stale lock are serialised by a second, short-lived file
//   (`….takeover`) naming its holder, and each replaces the lock only if it is still the very file it
//   judged stale.
// - A lock path that is not a small regular file (a directory, a FIFO, a huge file) is never read: it
//   is not a lock this platform wrote, and the process refuses, saying so.
// - A process holds the lock while any of its databases on the directory is open, and always until it
//   exits (an 'exit' hook removes it; after a SIGKILL it is stale and the next process takes it over).
// - npm start hands the directory to a migration child process and takes it back: it keeps holding the
//   lock meanwhile and passes the child a token in its environment (handOverEnv), so the child works
//   under its parent's lock and no other process can slip in between.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, realpathSync, statSync, unlinkSync, utimesSync, writeFileSync, writeSync, type Stats } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { StartupError } from '../process/startup.ts';

export const LOCK_FILE = 'esports-platform.lock';
/** How often a holder renews its lock's mtime, and when a lock of another host that was not renewed is stale. */
export const RENEWAL_MS = 5_000;
export const RENEWAL_STALE_MS = 30_000;
/** A lock this platform writes is a few hundred bytes: a larger file is not one. */
const MAX_LOCK_BYTES = 4_096;
/** Set by a process for the child it hands its directory to (never by hand). */
export const HANDOVER_ENV = 'PGLITE_LOCK_HANDOVER';

interface LockContent {
  /** The directory it locks: a lock copied along with the directory's files does not lock the copy. */
  dir?: string;
  /** The directory's device and inode, which another path to it shares and a copy does not. */
  dirId?: string;
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
  /** Renews the lock's mtime while it is held (owned locks only). */
  renewal?: NodeJS.Timeout;
}

/** The directory is in use by another live process. */
export class DataDirInUse extends StartupError {
  constructor(
    readonly dir: string,
    readonly holder: LockContent,
  ) {
    const elsewhere = Boolean(holder.host) && holder.host !== hostname();
    const where = elsewhere ? ` on ${holder.host}` : '';
    const until = elsewhere ? ` (another host's lock holds while it is renewed: ${RENEWAL_STALE_MS / 1000} s after its process stops, it is taken over)` : '';
    super(
      `The embedded database in ${dir} is in use by process ${holder.pid}${where} (${holder.command}, since ${holder.startedAt})${until}: PGlite lets one process open it at a time, so stop that process first or set PGLITE_DATA_DIR to another directory.`,
    );
  }
}

const held = new Map<string, Held>();
let exitHookInstalled = false;

/** Takes (or joins this process's hold on) the lock of a PGlite directory, creating the directory. */
export function holdDataDir(dataDir: string): DataDirHold {
  mkdirSync(dataDir, { recursive: true });
  const dir = realpathSync(dataDir);
  // Keyed by the directory itself: two paths to it are one hold.
  const key = directoryId(dir);
  let entry = held.get(key);
  if (!entry) {
    entry = acquire(dir, key);
    held.set(key, entry);
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
      held.delete(key);
      if (current.owned) removeIfOurs(current);
    },
    handOverEnv: () => ({ [HANDOVER_ENV]: current.token }),
  };
}

const directoryId = (dir: string) => {
  const stats = statSync(dir);
  return `${stats.dev}:${stats.ino}`;
};

/** How long a process tries to take the lock while it keeps changing under it (other processes starting). */
const ACQUIRE_TIMEOUT_MS = 15_000;

function acquire(dir: string, dirId: string): Held {
  const lockPath = path.join(dir, LOCK_FILE);
  const inherited = process.env[HANDOVER_ENV];
  const mine: LockContent = {
    dir,
    dirId,
    pid: process.pid,
    command: commandName(),
    startedAt: new Date().toISOString(),
    processStart: processStartOf(process.pid),
    host: hostname(),
    token: randomBytes(16).toString('hex'),
  };
  const owned = (): Held => {
    removeLeftTemporaries(dir);
    return renewed({ dir, lockPath, count: 0, owned: true, token: mine.token });
  };
  const deadline = Date.now() + ACQUIRE_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (create(lockPath, mine)) return owned();
    // What is judged is what a takeover may replace: never a lock read again later, which another
    // process may have taken over meanwhile.
    const found = snapshot(lockPath);
    if (found === null) continue;
    if (found.lock !== 'unreadable') {
      const holder = found.lock;
      // Our parent's lock, handed to us for its migration step.
      if (inherited && holder.token === inherited && holder.pid === process.ppid) return { dir, lockPath, count: 0, owned: false, token: holder.token };
      if (sameDirectory(holder, dir, dirId) && holds(holder, found.stats)) throw new DataDirInUse(dir, holder);
    } else if (ageOf(found.stats) < 2_000) {
      // Not ours to judge yet: a lock file is only unreadable while a writer without link(2) fills it.
      pause(20);
      continue;
    }
    if (takeOver(lockPath, found, mine)) return owned();
    pause(20);
  }
  const guard = guardHolder(rawOf(`${lockPath}.takeover`) ?? '');
  const why = guard ? `another process (${guard.pid}) has been taking it over all this time` : 'its lock file keeps changing';
  throw new StartupError(`Could not lock the embedded database in ${dir}: ${why}; is another process starting on it? (${lockPath})`);
}

/** A lock copied along with another directory's files locks nothing here. */
function sameDirectory(holder: LockContent, dir: string, dirId: string): boolean {
  if (holder.dirId !== undefined) return holder.dirId === dirId;
  return holder.dir === undefined || holder.dir === dir;
}

/** Whether the lock's holder still holds it: a live process of this host, or a lock of another host renewed lately. */
function holds(holder: LockContent, stats: Stats): boolean {
  if (holder.host && holder.host !== hostname()) return ageOf(stats) < RENEWAL_STALE_MS;
  return isRunning(holder);
}

/** Keeps an owned lock's mtime fresh, so that a process of another host sharing the directory sees it held. */
function renewed(entry: Held): Held {
  entry.renewal = setInterval(() => {
    const now = new Date();
    try {
      if (removable(entry)) utimesSync(entry.lockPath, now, now);
    } catch {
      // Gone or unwritable: the next start judges what it finds.
    }
  }, RENEWAL_MS);
  entry.renewal.unref();
  return entry;
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
    // The temporary file removed meanwhile (by a process that took it for one left behind): try again.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
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

interface Snapshot {
  stats: Stats;
  /** The text read, or null when the file was not read (not a small regular file). */
  text: string | null;
  lock: LockContent | 'unreadable';
}

/** The lock file as found, or null when there is none. One that is not a small regular file is never read. */
function snapshot(lockPath: string): Snapshot | null {
  let stats: Stats;
  try {
    stats = lstatSync(lockPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (!stats.isFile()) {
    throw new StartupError(`Could not lock the embedded database in ${path.dirname(lockPath)}: ${lockPath} is not a lock file (it is ${kindOf(stats)}); remove it if no process uses the directory.`);
  }
  if (stats.size > MAX_LOCK_BYTES) return { stats, text: null, lock: 'unreadable' };
  const text = rawOf(lockPath);
  if (text === null) return null;
  return { stats, text, lock: parse(text) };
}

const kindOf = (stats: Stats) =>
  stats.isDirectory() ? 'a directory' : stats.isFIFO() ? 'a named pipe' : stats.isSymbolicLink() ? 'a symbolic link' : stats.isSocket() ? 'a socket' : 'a device';

function parse(text: string): LockContent | 'unreadable' {
  try {
    const parsed = JSON.parse(text) as LockContent;
    return Number.isInteger(parsed?.pid) && parsed.pid > 0 ? parsed : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

const rawOf = (file: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
};

/** Whether the lock file is still the one snapshotted: the same file (inode), size, mtime and text. */
function unchanged(lockPath: string, judged: Snapshot): boolean {
  let stats: Stats;
  try {
    stats = lstatSync(lockPath);
  } catch {
    return false;
  }
  if (stats.ino !== judged.stats.ino || stats.size !== judged.stats.size || stats.mtimeMs !== judged.stats.mtimeMs || !stats.isFile()) return false;
  return judged.text === null || rawOf(lockPath) === judged.text;
}

/**
 * Replaces the stale lock that was judged. Only one process at a time may do it (the `.takeover`
 * guard, which names its holder): under the guard it checks that the lock is still that file, so it
 * never removes a lock another process has just taken. A guard is removed when the process it names
 * no longer runs (it died within it), or when it is older than a takeover ever takes.
 */
function takeOver(lockPath: string, judged: Snapshot, mine: LockContent): boolean {
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
    if (!unchanged(lockPath, judged)) return false;
    removeFile(lockPath);
    return create(lockPath, mine);
  } finally {
    removeFile(guard);
  }
}

/** A takeover holds its guard for a few system calls: one older than this was left, whoever it names. */
const GUARD_STALE_MS = 10_000;

function removeDeadGuard(guard: string): void {
  let stats: Stats;
  try {
    stats = lstatSync(guard);
  } catch {
    return;
  }
  const text = stats.isFile() && stats.size <= MAX_LOCK_BYTES ? rawOf(guard) : null;
  const holder = text === null ? null : guardHolder(text);
  // A guard of an earlier version (a bare pid), or half-written, is judged by its age alone.
  const left = ageOf(stats) > GUARD_STALE_MS || (holder !== null && !isRunning(holder));
  // The same guard still: not one another process has just created in its place.
  if (left && lstatSync(guard, { throwIfNoEntry: false })?.ino === stats.ino) removeFile(guard);
}

function guardHolder(text: string): Pick<LockContent, 'pid' | 'processStart'> | null {
  try {
    const { pid, processStart } = JSON.parse(text) as Partial<LockContent>;
    return Number.isInteger(pid) && (pid as number) > 0 ? { pid: pid as number, processStart: typeof processStart === 'string' ? processStart : null } : null;
  } catch {
    return null;
  }
}

/** Whether a process of this host still runs: its pid is alive and is the same process (same start time). */
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

/** Temporary files that a process killed between writing and linking its lock left behind. */
function removeLeftTemporaries(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const match = /^esports-platform\.lock\.(\d+)\.[0-9a-f]+\.tmp$/.exec(name);
    if (match && Number(match[1]) !== process.pid && !isRunning({ pid: Number(match[1]), processStart: null })) removeFile(path.join(dir, name));
  }
}

const removable = (entry: Held) => {
  const found = rawOf(entry.lockPath);
  const lock = found === null ? 'unreadable' : parse(found);
  return lock !== 'unreadable' && lock.token === entry.token;
};

function removeIfOurs(entry: Held): void {
  clearInterval(entry.renewal);
  if (removable(entry)) removeFile(entry.lockPath);
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

/** How old a file is; one dated further in the future than clocks disagree is as good as old. */
function ageOf(stats: Stats): number {
  const age = Date.now() - stats.mtimeMs;
  return age < -RENEWAL_STALE_MS ? Infinity : Math.max(0, age);
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
const pause = (ms: number) => Atomics.wait(sleeper, 0, 0, ms);
