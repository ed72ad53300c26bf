// PORT and HOST as the servers read them, what counts as loopback (the demo world's warning), and the
// URLs a banner prints for an address.
import http from 'node:http';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { assertCanListen, displayBase, isLoopback, listen, listenAddressFromEnv, reachableBase } from '../platform/process/listen.ts';
import { StartupError } from '../platform/process/startup.ts';

describe('listenAddressFromEnv', () => {
  it('takes the defaults for unset or empty values: 127.0.0.1 and the given port', () => {
    expect(listenAddressFromEnv(4000, {})).toEqual({ port: 4000, host: '127.0.0.1' });
    expect(listenAddressFromEnv(4001, { PORT: '', HOST: ' ' })).toEqual({ port: 4001, host: '127.0.0.1' });
    expect(listenAddressFromEnv(4000, { PORT: ' 0 ', HOST: '[::1]' })).toEqual({ port: 0, host: '::1' });
    expect(listenAddressFromEnv(4000, { PORT: '65535', HOST: '0.0.0.0' })).toEqual({ port: 65_535, host: '0.0.0.0' });
  });

  it('refuses anything but a whole number from 0 to 65535, naming PORT', () => {
    for (const port of ['abc', '65536', '-1', '1.5', '1e3', '0x10', '4000x', '99999999']) {
      expect(() => listenAddressFromEnv(4000, { PORT: port }), port).toThrow(StartupError);
      expect(() => listenAddressFromEnv(4000, { PORT: port }), port).toThrow(/^PORT must be a whole number from 0 to 65535/);
    }
  });
});

describe('isLoopback', () => {
  it('is true only for addresses other machines cannot reach', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1', '[::1]', 'localhost']) expect(isLoopback(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.0.2.2', '10.0.0.1', 'fe80::1', 'example.com', 'localhost.example.com']) expect(isLoopback(host), host).toBe(false);
  });
});

describe('banner URLs', () => {
  it('prints localhost for loopback and wildcard addresses, the address itself otherwise', () => {
    expect(displayBase('127.0.0.1', 4000)).toBe('http://localhost:4000');
    expect(displayBase('0.0.0.0', 4000)).toBe('http://localhost:4000');
    expect(displayBase('::', 4000)).toBe('http://localhost:4000');
    expect(displayBase('192.0.2.2', 4000)).toBe('http://192.0.2.2:4000');
    expect(displayBase('2001:db8::1', 4000)).toBe('http://[2001:db8::1]:4000');
    expect(reachableBase('0.0.0.0', 1)).toBe('http://127.0.0.1:1');
    expect(reachableBase('::', 1)).toBe('http://[::1]:1');
    expect(reachableBase('::1', 1)).toBe('http://[::1]:1');
  });
});

describe('listen', () => {
  it('rejects with one sentence naming HOST and PORT, the error handled (nothing uncaught); the probe too', async () => {
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as net.AddressInfo).port;
    try {
      const expected = `Cannot listen on HOST=127.0.0.1 PORT=${port} (EADDRINUSE): the port is in use by another process; stop it or set PORT to a free port.`;
      const server = http.createServer();
      for (const attempt of [listen(server, { port, host: '127.0.0.1' }), assertCanListen({ port, host: '127.0.0.1' })]) {
        const failure = await attempt.then(() => null, (error: unknown) => error);
        expect(failure).toBeInstanceOf(StartupError);
        expect((failure as StartupError).message).toBe(expected);
      }
      // The same server listens once the port is free, and the probe leaves nothing listening.
      await new Promise((resolve) => busy.close(resolve));
      await assertCanListen({ port, host: '127.0.0.1' });
      expect(await listen(server, { port, host: '127.0.0.1' })).toBe(port);
      await new Promise((resolve) => server.close(resolve));
    } finally {
      if (busy.listening) busy.close();
    }
  });

  it('turns a port listen() itself refuses into the same kind of sentence', async () => {
    await expect(listen(net.createServer(), { port: 70_000, host: '127.0.0.1' })).rejects.toThrow(/^Cannot listen on HOST=127\.0\.0\.1 PORT=70000 \(ERR_SOCKET_BAD_PORT\): /);
  });
});
