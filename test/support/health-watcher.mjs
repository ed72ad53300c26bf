// The worker thread of health-budget.ts (plain JavaScript: a worker loads it without a compiler).
// Asks `${base}/healthz` every 100 ms and, when `metrics` is set, reads `${base}/metrics` every 250 ms.
// Each /healthz answer is a sample: when it was asked, how long it took (wall) and how much CPU time
// the server's main thread, its event loop, spent meanwhile (from /proc/<pid>/task/<pid>/stat). A
// thread of its own, so that what it measures is the server's answer, not the wait for the test's
// event loop, which the flooding clients keep busy.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

const { base, pid, metrics: readMetrics, tickMs } = workerData;
let running = true;
const seen = { samples: [], healthFailures: [], heapMiB: 0, overBudget: [], mostUsed: {} };
const began = performance.now();
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
parentPort.on('message', () => (running = false));

/** CPU time (ms) the process's main thread has used: utime + stime, fields 14 and 15 of its stat. */
function mainThreadCpuMs() {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * tickMs;
  } catch {
    return NaN;
  }
}

// The watcher's own first request (a new connection, the fetch machinery's first use) is not the
// server's answer time: made before watching starts.
await fetch(base + '/healthz').then((response) => response.text(), () => undefined);
parentPort.postMessage('ready');
const health = (async () => {
  while (running) {
    // The abort only keeps a server that never answers from hanging the watcher.
    const cpuBefore = mainThreadCpuMs();
    const started = performance.now();
    try {
      const response = await fetch(base + '/healthz', { signal: AbortSignal.timeout(30000) });
      await response.text();
      if (response.status !== 200) seen.healthFailures.push('status ' + response.status);
    } catch (error) {
      seen.healthFailures.push(String(error));
    }
    const wallMs = performance.now() - started;
    seen.samples.push({ atMs: Math.round(started - began), wallMs, cpuMs: mainThreadCpuMs() - cpuBefore });
    await pause(100);
  }
})();
const metrics = (async () => {
  while (running && readMetrics) {
    try {
      const text = await (await fetch(base + '/metrics', { signal: AbortSignal.timeout(10000) })).text();
      const heap = /^nodejs_heap_size_used_bytes (\S+)/m.exec(text);
      if (heap) seen.heapMiB = Math.max(seen.heapMiB, Number(heap[1]) / 2 ** 20);
      const limits = new Map([...text.matchAll(/^memory_budget_limit_bytes\{budget="([^"]+)"\} (\S+)/gm)].map((m) => [m[1], Number(m[2])]));
      for (const [, name, used] of text.matchAll(/^memory_budget_used_bytes\{budget="([^"]+)"\} (\S+)/gm)) {
        seen.mostUsed[name] = Math.max(seen.mostUsed[name] ?? 0, Number(used));
        if (Number(used) > (limits.get(name) ?? 0)) seen.overBudget.push(name + ': ' + used + ' of ' + limits.get(name));
      }
    } catch (error) {
      seen.healthFailures.push('metrics: ' + error);
    }
    await pause(250);
  }
})();
await Promise.all([health, metrics]);
parentPort.postMessage(seen);
