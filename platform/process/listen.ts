// Where a server listens (PORT and HOST) and the listening itself, for npm start and npm run
// start:subgraph alike. Loopback by default: the demo world's credentials are published, and a
// subgraph is an internal service. A failure to listen is one sentence naming PORT and HOST (a
// StartupError), never an 'error' event that nobody handles.
import { createServer, type Server } from 'node:net';
import ipaddr from 'ipaddr.js';
import { setting } from './config.ts';
import { StartupError } from './startup.ts';

export const DEFAULT_HOST = '127.0.0.1';

export interface ListenAddress {
  port: number;
  host: string;
}

/** PORT (a whole number 0–65535; 0 picks a free port) and HOST (default 127.0.0.1); unset or empty takes the default. Throws a StartupError. */
export function listenAddressFromEnv(defaultPort: number, env: NodeJS.ProcessEnv = process.env): ListenAddress {
  return { port: setting('PORT', env) ?? defaultPort, host: setting('HOST', env) };
}

/** Whether only this machine can reach the address: 127.0.0.0/8, ::1 or localhost. */
export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  const bare = host.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return false;
  const address = ipaddr.process(bare);
  return address.range() === 'loopback';
}

/** The base URL to print for a server listening on host:port (localhost for loopback and wildcard addresses). */
export function displayBase(host: string, port: number): string {
  const bare = host.replace(/^\[|\]$/g, '');
  const local = isLoopback(bare) || bare === '0.0.0.0' || bare === '::';
  return `http://${local ? 'localhost' : ipaddr.IPv6.isValid(bare) ? `[${bare}]` : bare}:${port}`;
}

/** The base URL a client on this machine can use to reach host:port (an address, no name lookup). */
export function reachableBase(host: string, port: number): string {
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === '0.0.0.0' || bare === 'localhost') return `http://127.0.0.1:${port}`;
  if (bare === '::') return `http://[::1]:${port}`;
  return `http://${ipaddr.IPv6.isValid(bare) ? `[${bare}]` : bare}:${port}`;
}

/**
 * Fails at once, before a server opens its database and builds itself (seconds, a minute on a new
 * PGlite), when host:port cannot be listened on: it listens and closes again. The real listen still
 * reports a port taken in between.
 */
export async function assertCanListen(address: ListenAddress): Promise<void> {
  if (address.port === 0) return;
  const probe = createServer();
  await listen(probe, address);
  await new Promise((resolve) => probe.close(resolve));
}

/** Listens on host:port; rejects with one sentence naming PORT and HOST when it cannot. */
export function listen(server: Server, { port, host }: ListenAddress): Promise<number> {
  return new Promise((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException) => {
      server.off('listening', done);
      reject(listenFailure(error, { port, host }));
    };
    const done = () => {
      server.off('error', fail);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    };
    // listen() reports a port in use (and every other failure to bind) as an 'error' event, not by
    // throwing: unheard, it would be an uncaught exception while this promise never settled. Heard
    // here, it rejects the start with the reason in one sentence.
    server.once('error', fail);
    server.once('listening', done);
    try {
      server.listen(port, host);
    } catch (error) {
      server.off('error', fail);
      server.off('listening', done);
      reject(listenFailure(error as NodeJS.ErrnoException, { port, host }));
    }
  });
}

const HINTS: Record<string, string> = {
  EADDRINUSE: 'the port is in use by another process; stop it or set PORT to a free port',
  EACCES: 'permission denied (ports below 1024 need privileges); set PORT to 1024 or above',
  EADDRNOTAVAIL: 'the address is not one of this machine’s; set HOST to one of its addresses, 127.0.0.1 (the default) or 0.0.0.0',
  ENOTFOUND: 'the host name does not resolve; set HOST to an address of this machine',
  EAI_AGAIN: 'the host name could not be resolved now; set HOST to an address of this machine',
  EAFNOSUPPORT: 'this machine does not support that address family; set HOST to 127.0.0.1 or 0.0.0.0',
};

export function listenFailure(error: NodeJS.ErrnoException, { port, host }: ListenAddress): StartupError {
  const code = error.code ?? 'error';
  const hint = HINTS[code] ?? String(error.message ?? error).split('\n')[0];
  const failure = new StartupError(`Cannot listen on HOST=${host} PORT=${port} (${code}): ${hint}.`);
  failure.cause = error;
  return failure;
}
