// The pure tournament engine's costs, no database: computeStandings over 1,024-participant stages (what
// a result report recomputes in its transaction) and swissNextRound for 256 and 1,024 participants up
// to round 10. Part of `npm run bench` (BENCH_ONLY=tournament-engine), or on its own:
// npx tsx test/bench/tournament-engine.ts
import { pathToFileURL } from 'node:url';
import {
  computeStandings,
  generateStage,
  mulberry32,
  resolvedSettings,
  swissFirstRound,
  swissNextRound,
  type GeneratedDuel,
  type StageFormat,
  type StandingsDuel,
  type SwissHistoryEntry,
  type SwissPairing,
} from '../../subgraphs/competitions/tournament/index.ts';

const ids = (n: number) => Array.from({ length: n }, (_, i) => `p${i + 1}`);
const seeded = (list: string[]) => list.map((participantId, i) => ({ participantId, seed: i + 1 }));

/** Median wall and CPU milliseconds of `runs` calls. */
function measure(run: () => unknown, runs = 9): { wall: number; cpu: number } {
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < runs; i++) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    run();
    walls.push(performance.now() - started);
    const used = process.cpuUsage(cpu);
    cpus.push((used.user + used.system) / 1000);
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1];
  return { wall: median(walls), cpu: median(cpus) };
}
const show = ({ wall, cpu }: { wall: number; cpu: number }) => `${wall.toFixed(1)} ms wall, ${cpu.toFixed(1)} ms CPU`;

/** A swiss stage of n played for `rounds` rounds with seeded random results: its matches and pairing times. */
function playSwiss(n: number, rounds: number, seed: number) {
  const random = mulberry32(seed);
  const settings = resolvedSettings('swiss', { rounds }, n);
  const participants = seeded(ids(n));
  const matches: StandingsDuel[] = [];
  const history: SwissHistoryEntry[] = [];
  const pairingMs: number[] = [];
  const pairingCpuMs: number[] = [];
  const record = (pairing: SwissPairing) => {
    for (const [a, b] of pairing.pairs) {
      history.push({ a, b });
      const roll = random();
      matches.push({ participantA: a, participantB: b, scoreA: roll < 0.45 ? 2 : 1, scoreB: roll < 0.45 ? 1 : roll < 0.55 ? 1 : 2, winner: roll < 0.45 ? a : roll < 0.55 ? null : b, isDraw: roll >= 0.45 && roll < 0.55 });
    }
    if (pairing.bye) {
      history.push({ a: pairing.bye, b: null });
      matches.push({ participantA: pairing.bye, participantB: null, winner: pairing.bye, isFreeWin: true });
    }
  };
  record(swissFirstRound(ids(n)));
  for (let round = 2; round <= rounds; round++) {
    const standings = computeStandings({ format: 'swiss', settings, participants, matches });
    const cpu = process.cpuUsage();
    const started = performance.now();
    record(swissNextRound({ standings, history, roundNumber: round, rounds })!);
    pairingMs.push(performance.now() - started);
    const used = process.cpuUsage(cpu);
    pairingCpuMs.push((used.user + used.system) / 1000);
  }
  return { settings, participants, matches, pairingMs, pairingCpuMs };
}

/** An elimination stage played out, the better seed winning 70% of the time. */
function playElimination(format: 'single_elimination' | 'double_elimination', n: number): StandingsDuel[] {
  const random = mulberry32(n);
  const stage = generateStage({ format, settings: resolvedSettings(format, {}, n), participants: ids(n) });
  const matches = stage.matches as GeneratedDuel[];
  const byKey = new Map(matches.map((m) => [m.key, m]));
  const place = (link: GeneratedDuel['winnerTo'], id: string) => {
    if (!link) return;
    const target = byKey.get(link.matchKey)!;
    if (link.slot === 'a') target.participantA = id;
    else target.participantB = id;
  };
  const played: StandingsDuel[] = [];
  for (const match of matches) {
    const { participantA: a, participantB: b } = match;
    if (match.isFreeWin || a === null || b === null) {
      const alone = a ?? b;
      if (alone === null) continue;
      place(match.winnerTo, alone);
      played.push({ ...match, winner: alone });
      continue;
    }
    const better = Number(a.slice(1)) < Number(b.slice(1)) ? a : b;
    const winner = random() < 0.7 ? better : better === a ? b : a;
    if (match.bracket === 'grand_final' && winner === a) {
      played.push({ ...match, winner });
      break;
    }
    place(match.winnerTo, winner);
    place(match.loserTo, winner === a ? b : a);
    played.push({ ...match, winner, scoreA: winner === a ? 2 : 1, scoreB: winner === b ? 2 : 1 });
  }
  return played;
}

export async function tournamentEngineBench() {
  console.log('\nTournament engine (pure, no database), medians of 9 runs:');
  const swiss = playSwiss(1024, 10, 1);
  console.log(`computeStandings, swiss of 1,024 after 10 rounds (${swiss.matches.length} matches, tiebreakers ${swiss.settings.tiebreakers!.join(', ')}): ${show(measure(() => computeStandings({ format: 'swiss', settings: swiss.settings, participants: swiss.participants, matches: swiss.matches })))}`);
  for (const format of ['single_elimination', 'double_elimination'] as const) {
    const played = playElimination(format, 1024);
    const settings = resolvedSettings(format, {}, 1024);
    console.log(`computeStandings, ${format} of 1,024 played out (${played.length} matches): ${show(measure(() => computeStandings({ format, settings, participants: seeded(ids(1024)), matches: played })))}`);
  }
  const league: StandingsDuel[] = [];
  const random = mulberry32(3);
  const format: StageFormat = 'league';
  for (const match of generateStage({ format, settings: resolvedSettings(format, { legs: 2 }), participants: ids(64) }).matches as GeneratedDuel[]) {
    const [scoreA, scoreB] = [Math.floor(random() * 4), Math.floor(random() * 4)];
    league.push({ participantA: match.participantA, participantB: match.participantB, scoreA, scoreB, winner: scoreA > scoreB ? match.participantA : scoreB > scoreA ? match.participantB : null, isDraw: scoreA === scoreB });
  }
  console.log(`computeStandings, league of 64 over two legs (${league.length} matches, head to head): ${show(measure(() => computeStandings({ format, settings: resolvedSettings(format, { legs: 2 }), participants: seeded(ids(64)), matches: league })))}`);

  for (const n of [256, 1024]) {
    const played = [1, 2, 3, 4, 5].map((seed) => playSwiss(n, 10, seed));
    const spread = (times: number[]) => {
      const sorted = [...times].sort((a, b) => a - b);
      return `median ${sorted[sorted.length >> 1].toFixed(1)}, 90th percentile ${sorted[Math.floor(sorted.length * 0.9)].toFixed(1)}, slowest ${sorted[sorted.length - 1].toFixed(1)} ms`;
    };
    const wall = played.flatMap((run) => run.pairingMs);
    console.log(`swissNextRound, ${n} participants, rounds 2–10 of 5 tournaments (${wall.length} pairings): wall ${spread(wall)}; CPU ${spread(played.flatMap((run) => run.pairingCpuMs))}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await tournamentEngineBench();
