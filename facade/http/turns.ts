// Turns for expensive synchronous steps (a GraphQL document's parse, measurement and validation, up
// to a few milliseconds each): taken in arrival order, as many in one turn of the event loop as fit in
// TURN_MS (1 ms), the rest in the next turns. Whatever arrives meanwhile (/healthz, REST requests, other
// clients' documents) is answered within about TURN_MS and one step, not after a whole burst: a client
// that sends a hundred documents at once does not hold the event loop for a hundred steps.
const TURN_MS = 1;

const waiting: (() => void)[] = [];
let scheduled = false;
let turnStarted = 0;

/** Lets the next waiter go on, while this turn has time left; else leaves the rest to the next turn. */
function next(): void {
  const go = waiting.shift();
  if (!go) {
    scheduled = false;
    return;
  }
  go();
  // Queued after the waiter's own continuation, so that its step is counted before the next one starts.
  if (performance.now() - turnStarted < TURN_MS) queueMicrotask(next);
  else setImmediate(turn);
}

function turn(): void {
  turnStarted = performance.now();
  next();
}

/** Resolves when it is this step's turn (await it directly: its continuation is the step). */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => {
    waiting.push(resolve);
    if (!scheduled) {
      scheduled = true;
      setImmediate(turn);
    }
  });
}
