// The /healthz budget of the flood tests (support/health-budget.ts) fails on a server that stalls
// and passes a server that is only kept off the CPU: measured on a small server process of this
// file's own that, asked to, spins its event loop for 2.5 s of CPU time, or is stopped (SIGSTOP)
// for 2.5 s, as a machine busy with other work would.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overLatencyBudget, ownMs, slowestOwnMs, watchHealth, type HealthSample } from './support/health-budget.ts';

const SERVER = `
const http = require('node:http');
const server = http.createServer((request, response) => {
  if (request.url === '/stall') {
    const from = process.cpuUsage();
    const spent = () => { const { user, system } = process.cpuUsage(from); return (user + system) / 1000; };
    while (spent() < 2500);
  }
  response.end('ok');
});
server.listen(0, '127.0.0.1', () => console.log('listening ' + server.address().port));
`;

let child: ChildProcess;
let base: string;

beforeAll(async () => {
  child = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  base = `http://127.0.0.1:${/listening (\d+)/.exec(String(line))![1]}`;
});

afterAll(async () => {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGCONT');
    child.kill('SIGKILL');
    await once(child, 'exit');
  }
});

const sample = (wallMs: number, cpuMs: number): HealthSample => ({ atMs: 0, wallMs, cpuMs });

describe('the /healthz budget', () => {
  it('counts what the server spent: a stall is over it, a wait for the CPU is not', () => {
    expect(overLatencyBudget([sample(40, 30), sample(3000, 2900)], 1000)).toEqual([sample(3000, 2900)]);
    expect(overLatencyBudget([sample(3000, 200), sample(1200, 0)], 1000)).toEqual([]);
    // Where /proc cannot tell, the wall time counts.
    expect(ownMs(sample(1500, NaN))).toBe(1500);
    expect(slowestOwnMs([sample(900, 950), sample(2000, 100)])).toBe(900);
  });

  it('fails a server whose event loop stalls, on an idle machine or a busy one', async () => {
    const watching = await watchHealth(base, child.pid!);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await (await fetch(`${base}/stall`)).text();
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Not its failures: a stalled server may also drop a connection (a kept-alive one whose timer
    // fires late, as the next request arrives); each one is still a sample.
    const { samples } = await watching.stop();
    expect(overLatencyBudget(samples, 1000).length, JSON.stringify(samples)).toBeGreaterThan(0);
  });

  it('passes a server that answers late only because it was not given the CPU', async () => {
    const watching = await watchHealth(base, child.pid!);
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.kill('SIGSTOP');
    await new Promise((resolve) => setTimeout(resolve, 2500));
    child.kill('SIGCONT');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { samples, healthFailures } = await watching.stop();
    expect(healthFailures).toEqual([]);
    // The pause was seen, and is not the server's.
    expect(Math.max(...samples.map((s) => s.wallMs)), JSON.stringify(samples)).toBeGreaterThan(2000);
    expect(overLatencyBudget(samples, 1000), JSON.stringify(samples)).toEqual([]);
  });
});
