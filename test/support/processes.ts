// Server processes a test starts (npm start, npm run start:subgraph): started through npm as a user
// would, stopped by a signal to the npm process, and checked to be gone. The server prints its own
// process id ("server process N"); stop() fails when that process outlives it, and
// assertNoServerLeft() fails a test file that leaves any server it started running.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '../..');

export interface ServerProcess {
  child: ChildProcess;
  /** The server's own process id, as it printed it. */
  pid: number;
  base: string;
  output(): string;
  /** Sends the signal to npm and waits until the server process is gone (fails after 10 s). */
  stop(signal?: NodeJS.Signals): Promise<{ exitMs: number }>;
}

const started = new Set<number>();

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function waitUntilGone(pid: number, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return !isAlive(pid);
}

export interface StartOptions {
  /** npm (the default), or another program such as node for a benchmark that varies its flags. */
  command?: string;
  args: string[];
  env: Record<string, string>;
  /** Matches the printed URL; group 1 is the base URL. */
  ready: RegExp;
  timeoutMs?: number;
}

export function startServerProcess({ command = 'npm', args, env, ready, timeoutMs = 120_000 }: StartOptions): Promise<ServerProcess> {
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not come up:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = ready.exec(output);
      const pid = /server process (\d+)/i.exec(output);
      if (url && pid) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        child.stderr!.off('data', onData);
        child.stdout!.on('data', (more: Buffer) => (output += more.toString()));
        child.stderr!.on('data', (more: Buffer) => (output += more.toString()));
        const serverPid = Number(pid[1]);
        started.add(serverPid);
        resolve({
          child,
          pid: serverPid,
          base: url[1],
          output: () => output,
          async stop(signal = 'SIGTERM') {
            const at = Date.now();
            child.kill(signal);
            const gone = await waitUntilGone(serverPid, 10_000);
            if (!gone) {
              process.kill(serverPid, 'SIGKILL');
              throw new Error(`server process ${serverPid} was still running 10 s after ${signal} to npm`);
            }
            started.delete(serverPid);
            return { exitMs: Date.now() - at };
          },
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm exited with ${code} before the server came up:\n${output}`));
    });
  });
}

/** For afterAll: fails when a server this file started is still running (and stops it), or a command run by runToExit. */
export function assertNoServerLeft(): void {
  const alive = [...started].filter(isAlive);
  for (const pid of alive) process.kill(pid, 'SIGKILL');
  started.clear();
  const groups = [...runningGroups];
  for (const group of groups) killGroup(group);
  runningGroups.clear();
  if (alive.length) throw new Error(`server process(es) ${alive.join(', ')} outlived the test file`);
  if (groups.length) throw new Error(`command(s) ${groups.join(', ')} run to their end were still running when the test file ended`);
}

/** Runs an npm script of the project to its end: its exit code and everything it printed. */
export function runScript(script: string, args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], { cwd: root, env: { ...process.env, ...env } });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => resolve({ code: code ?? 1, output }));
  });
}

export interface ExitResult {
  /** The exit code; null when it was killed (timeoutMs passed). */
  code: number | null;
  output: string;
  ms: number;
}

/**
 * Runs a command to its end and says how it ended: for start-up failures, which must exit, not hang.
 * After timeoutMs its whole process group is killed (npm, the shell and the server alike) and code is null.
 */
export function runToExit(command: string, args: string[], env: Record<string, string>, options: { timeoutMs?: number; uid?: number; gid?: number } = {}): Promise<ExitResult> {
  const at = Date.now();
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true, uid: options.uid, gid: options.gid });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  runningGroups.add(child.pid!);
  const timer = setTimeout(() => killGroup(child.pid!), options.timeoutMs ?? 60_000);
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(timer);
      // What it started may outlive it (npm's server child): the group goes with it.
      killGroup(child.pid!);
      runningGroups.delete(child.pid!);
      resolve({ code, output, ms: Date.now() - at });
    }),
  );
}

const runningGroups = new Set<number>();

function killGroup(group: number): void {
  try {
    process.kill(-group, 'SIGKILL');
  } catch {
    // gone already
  }
}

/** What a command itself printed, without npm's own notices. */
export const saidLines = (output: string) =>
  output
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('npm ') && !line.startsWith('> '));
