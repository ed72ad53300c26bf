// The demo world of docs/demo-world.md: exact ids and credentials. Loaded into an empty database on
// first start, by `npm run db:seed`, and by every end-to-end test. Secrets are stored hashed.
import type { Db, WriteAccess } from '../platform/db/database.ts';
import { hashSecret, sha256 } from '../platform/api/crypto.ts';
import { PROVIDER_SCOPES, SCOPES } from '../platform/domain/scopes.ts';
import { importEsportsData } from './esports/import/import.ts';
import { setting } from '../platform/process/config.ts';
import { fromRoot } from '../platform/process/paths.ts';
import { readFile } from 'node:fs/promises';

/** The demo deliveries' attempts are spaced by the default schedule, whatever this process is set to. */
const DEFAULT_RETRY_SCHEDULE = setting('WEBHOOK_RETRY_SCHEDULE', {});

export const DEMO = {
  password: 'demo-password',
  apiKeys: { org_demo: 'demo-org-key-0001', org_rival: 'demo-org-key-0002' },
  clients: {
    app_demo: 'demo-app-secret',
    app_noesports: 'demo-noesports-secret',
    app_transfer: 'demo-transfer-secret',
    app_provider: 'demo-provider-secret',
  },
  tokens: {
    app: 'demo-token-app',
    readonly: 'demo-token-readonly',
    alice: 'demo-token-alice',
    bob: 'demo-token-bob',
    dave: 'demo-token-dave',
    noesports: 'demo-token-noesports',
    provider: 'demo-token-provider',
  },
} as const;

const FAR_FUTURE = new Date('2100-01-01T00:00:00.000Z');
const MAPS = ['ancient', 'anubis', 'dust2', 'inferno', 'mirage', 'nuke', 'train'];
const TEAMS = ['alpha', 'bravo', 'charlie', 'delta'];
/** The cup's sixteen teams, team_01 … team_16, two players each (usr_01a, usr_01b, …). */
const CUP_TEAMS = Array.from({ length: 16 }, (_, index) => String(index + 1).padStart(2, '0'));

/** A small deterministic generator, so the demo statistics are the same on every machine. */
function random(seed: number) {
  let state = seed >>> 0;
  return (max: number) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % max;
  };
}

/** A demo attempt: the receiver's status (null: no answer, a timeout), how long it took, what it answered. */
type DemoAttempt = [status: number | null, durationMs: number, responseBody: string | null];

/** dlv_dead's eight attempts: failures of several kinds, the last a 500 (the delivery's answer). */
const DEAD_LETTER_ATTEMPTS: DemoAttempt[] = [
  [500, 212, 'Internal Server Error'],
  [500, 198, 'Internal Server Error'],
  [502, 31, 'Bad Gateway'],
  [null, 15_000, null],
  [503, 27, 'Service Unavailable'],
  [500, 240, 'Internal Server Error'],
  [500, 187, 'Internal Server Error'],
  [500, 205, 'Internal Server Error'],
];

/**
 * A delivery's attempt log: the first a second after `createdAt`, each next one the default retry
 * schedule's delay after the one before (the worker's, without its jitter). Its end is the delivery's
 * updatedAt (and deliveredAt when it succeeded).
 */
export function demoAttempts(deliveryId: string, createdAt: Date, attempts: DemoAttempt[]) {
  let start = createdAt.getTime() + 1_000;
  let endedAt = createdAt;
  const rows = attempts.map(([responseStatus, durationMs, responseBody], index) => {
    if (index > 0) start += DEFAULT_RETRY_SCHEDULE[index - 1] * 1_000;
    endedAt = new Date(start + durationMs);
    const ok = responseStatus !== null && responseStatus < 300;
    return { deliveryId, number: index + 1, startedAt: new Date(start), durationMs, responseStatus, errorCode: ok ? null : responseStatus === null ? 'timeout' : 'http_error', responseBody };
  });
  return { attempts: rows, endedAt };
}

export async function isDemoWorldLoaded(db: Db): Promise<boolean> {
  return (await db.organisation.count({ where: { id: 'org_demo' } })) > 0;
}

/** Printed at start when a server holding the demo world listens beyond loopback (HOST). */
export const demoWorldWarning = (host: string) =>
  `Warning: HOST=${host} lets other machines reach this server, and its database holds the demo world, whose tokens, client secrets, API keys and password are published (docs/demo-world.md): anyone who reaches it can use them; listen on 127.0.0.1 (leave HOST unset) or use a database without the demo world (SEED_DEMO_WORLD=0 on a new one).`;

/** Loads the demo world unless it is there already; true when it loaded it. */
export async function loadDemoWorldIfEmpty(database: WriteAccess): Promise<boolean> {
  if (await isDemoWorldLoaded(database.prisma)) return false;
  await loadDemoWorld(database);
  return true;
}

export async function loadDemoWorld(database: WriteAccess): Promise<void> {
  const db = database.prisma;
  const passwordHash = hashSecret(DEMO.password);
  const t0 = Date.parse('2026-01-05T12:00:00.000Z');
  const at = (minutes: number) => new Date(t0 + minutes * 60_000);

  await db.$transaction(
    async (tx) => {
      await tx.organisation.createMany({
        data: [
          { id: 'org_demo', name: 'Demo Esports League', slug: 'demo-esports-league', createdAt: at(0) },
          { id: 'org_rival', name: 'Rival Cup Series', slug: 'rival-cup-series', createdAt: at(1) },
        ],
      });
      await tx.organisationApiKey.createMany({
        data: [
          { id: 'key_demo', organisationId: 'org_demo', keyHash: sha256(DEMO.apiKeys.org_demo), prefix: 'demo-org' },
          { id: 'key_rival', organisationId: 'org_rival', keyHash: sha256(DEMO.apiKeys.org_rival), prefix: 'demo-org' },
          // A spare key of org_demo whose plaintext is published nowhere: for trying rotation and revocation.
          { id: 'key_demo_spare', organisationId: 'org_demo', keyHash: sha256('demo-spare-key-never-published'), prefix: 'demo-spa', name: 'Spare (demo)' },
        ],
      });

      // Users: the five named ones plus the rest of the four rosters.
      const named = [
        { id: 'usr_alice', username: 'alice', displayName: 'Alice Admin', nationality: 'SE' },
        { id: 'usr_bob', username: 'bob', displayName: 'Bob', nationality: 'DE' },
        { id: 'usr_carol', username: 'carol', displayName: 'Carol', nationality: 'FR' },
        { id: 'usr_dave', username: 'dave', displayName: 'Dave Rival', nationality: 'GB' },
        { id: 'usr_erin', username: 'erin', displayName: 'Erin', nationality: 'US' },
      ];
      const rosters: Record<string, string[]> = {};
      const extra: typeof named = [];
      for (const team of TEAMS) {
        const roster = team === 'alpha' ? ['usr_bob'] : team === 'bravo' ? ['usr_carol'] : [];
        for (let n = roster.length + 1; roster.length < 5; n++) {
          const id = `usr_${team}_${n}`;
          roster.push(id);
          extra.push({ id, username: `${team}${n}`, displayName: `${team[0].toUpperCase()}${team.slice(1)} Player ${n}`, nationality: 'DK' });
        }
        rosters[team] = roster;
      }
      const cupPlayers = CUP_TEAMS.flatMap((n) =>
        ['a', 'b'].map((side) => ({ id: `usr_${n}${side}`, username: `cup${n}${side}`, displayName: `Cup Player ${n}${side.toUpperCase()}`, nationality: 'NL' })),
      );
      await tx.user.createMany({
        data: [...named, ...extra, ...cupPlayers].map((user, index) => ({
          ...user,
          email: `${user.username}@demo.example`,
          passwordHash,
          imageUrl: `https://cdn.example.test/avatars/${user.username}.png`,
          primaryPlatform: 'steam',
          platforms: ['steam'],
          createdAt: at(10 + index),
        })),
      });
      await tx.organisationMember.createMany({
        data: [
          { organisationId: 'org_demo', userId: 'usr_alice', role: 'administrator' },
          { organisationId: 'org_rival', userId: 'usr_dave', role: 'administrator' },
        ],
      });
      await tx.team.createMany({
        data: TEAMS.map((team, index) => ({
          id: `team_${team}`,
          name: `Team ${team[0].toUpperCase()}${team.slice(1)}`,
          logoUrl: `https://cdn.example.test/teams/${team}.png`,
          createdAt: at(50 + index),
        })),
      });
      await tx.teamMember.createMany({
        data: TEAMS.flatMap((team) =>
          rosters[team].map((userId, index) => ({ teamId: `team_${team}`, userId, role: index === 0 ? 'captain' : 'player' })),
        ),
      });
      await tx.team.createMany({
        data: CUP_TEAMS.map((n, index) => ({ id: `team_${n}`, name: `Cup Team ${n}`, logoUrl: `https://cdn.example.test/teams/cup-${n}.png`, createdAt: at(60 + index) })),
      });
      await tx.teamMember.createMany({
        data: CUP_TEAMS.flatMap((n) => [
          { teamId: `team_${n}`, userId: `usr_${n}a`, role: 'captain' },
          { teamId: `team_${n}`, userId: `usr_${n}b`, role: 'player' },
        ]),
      });
      await tx.map.createMany({
        data: MAPS.map((name) => ({ id: `map_${name}`, name: name === 'dust2' ? 'Dust II' : name[0].toUpperCase() + name.slice(1), imageUrl: `https://cdn.example.test/maps/${name}.png` })),
      });

      // Events.
      const runs = (startsAt: string, endsAt: string) => ({ startsAt: new Date(startsAt), endsAt: new Date(endsAt) });
      const event = (id: string, organisationId: string, name: string, state: string, minutes: number, extra: Record<string, unknown> = {}) => ({
        id,
        organisationId,
        name,
        slug: id.replace(/^evt_/, '').replace(/_/g, '-'),
        type: 'cup',
        visibility: 'public',
        state,
        platform: 'pc',
        currency: 'EUR',
        region: 'eu',
        bannerUrl: `https://cdn.example.test/events/${id}.png`,
        description: `${name} (demo event).`,
        game: 'cs2',
        timezone: 'Europe/Berlin',
        logoUrl: `https://cdn.example.test/events/${id}-logo.png`,
        primaryColor: '#1f6feb',
        secondaryColor: '#f2cc60',
        createdAt: at(minutes),
        ...extra,
      });
      await tx.event.createMany({
        data: [
          event('evt_draft', 'org_demo', 'Demo Draft Cup', 'draft', 100, { firstStageId: 'stg_draft_main', ...runs('2026-03-07T09:00:00Z', '2026-03-08T20:00:00Z') }),
          event('evt_open', 'org_demo', 'Demo Open', 'scheduled', 101, { firstStageId: 'stg_open_groups', revision: 5, ...runs('2026-01-05T09:00:00Z', '2026-01-11T20:00:00Z') }),
          event('evt_live', 'org_demo', 'Demo Live Series', 'live', 102, { firstStageId: 'stg_live_a', ...runs('2026-01-05T09:00:00Z', '2026-01-25T20:00:00Z') }),
          event('evt_done', 'org_demo', 'Demo Finals 2025', 'completed', 103, { firstStageId: 'stg_done_main', completedAt: at(5000), ...runs('2026-01-05T09:00:00Z', '2026-01-08T20:00:00Z') }),
          event('evt_rival', 'org_rival', 'Rival Cup', 'scheduled', 104, { firstStageId: 'stg_rival_main', ...runs('2026-02-21T09:00:00Z', '2026-02-22T20:00:00Z') }),
          // Sixteen teams registered, no stages yet: an organiser's cup to build.
          event('evt_cup', 'org_demo', 'Demo Spring Cup', 'draft', 105, runs('2026-04-11T09:00:00Z', '2026-04-12T20:00:00Z')),
        ],
      });
      await tx.stage.createMany({
        data: [
          { id: 'stg_draft_main', eventId: 'evt_draft', name: 'Main Stage', format: 'single_elimination', bestOf: 3, position: 1 },
          { id: 'stg_open_groups', eventId: 'evt_open', name: 'Group Stage', format: 'round_robin', bestOf: 1, position: 1 },
          { id: 'stg_live_a', eventId: 'evt_live', name: 'Stage A', format: 'swiss', bestOf: 1, position: 1, status: 'running' },
          { id: 'stg_live_b', eventId: 'evt_live', name: 'Stage B', format: 'round_robin', bestOf: 1, position: 2, status: 'running' },
          { id: 'stg_done_main', eventId: 'evt_done', name: 'Main Stage', format: 'round_robin', bestOf: 1, position: 1, status: 'completed' },
          { id: 'stg_rival_main', eventId: 'evt_rival', name: 'Main Stage', format: 'double_elimination', bestOf: 3, position: 1 },
        ],
      });
      await tx.group.createMany({
        data: [
          { id: 'grp_open_a', eventId: 'evt_open', stageId: 'stg_open_groups', name: 'Group A', position: 1 },
          { id: 'grp_open_b', eventId: 'evt_open', stageId: 'stg_open_groups', name: 'Group B', position: 2 },
          { id: 'grp_live_a1', eventId: 'evt_live', stageId: 'stg_live_a', name: 'Group A1', position: 1 },
        ],
      });
      await tx.round.createMany({
        data: [
          { id: 'rnd_open_a1', eventId: 'evt_open', stageId: 'stg_open_groups', groupId: 'grp_open_a', number: 1, name: 'Round 1' },
          { id: 'rnd_open_b1', eventId: 'evt_open', stageId: 'stg_open_groups', groupId: 'grp_open_b', number: 1, name: 'Round 1' },
        ],
      });

      // Participants: one per team in each event that has them.
      const participants: { id: string; eventId: string; teamId: string; status: string; selectedGroupIds: string[] }[] = [
        { id: 'par_alpha', eventId: 'evt_open', teamId: 'team_alpha', status: 'confirmed', selectedGroupIds: ['grp_open_a'] },
        { id: 'par_bravo', eventId: 'evt_open', teamId: 'team_bravo', status: 'confirmed', selectedGroupIds: ['grp_open_a'] },
        { id: 'par_delta', eventId: 'evt_open', teamId: 'team_delta', status: 'confirmed', selectedGroupIds: ['grp_open_b'] },
        { id: 'par_charlie', eventId: 'evt_open', teamId: 'team_charlie', status: 'registered', selectedGroupIds: [] },
        { id: 'par_rival_alpha', eventId: 'evt_rival', teamId: 'team_alpha', status: 'registered', selectedGroupIds: [] },
        { id: 'par_rival_bravo', eventId: 'evt_rival', teamId: 'team_bravo', status: 'registered', selectedGroupIds: [] },
      ];
      for (const evt of ['live', 'done']) {
        for (const team of TEAMS) {
          participants.push({ id: `par_${evt}_${team}`, eventId: `evt_${evt}`, teamId: `team_${team}`, status: 'confirmed', selectedGroupIds: [] });
        }
      }
      await tx.participant.createMany({
        data: participants.map((p, index) => ({ ...p, signupAnswers: { discord: `${p.teamId}#0001` }, createdAt: at(200 + index) })),
      });
      await tx.lineupMember.createMany({
        data: participants.flatMap((p) =>
          rosters[p.teamId.replace('team_', '')].map((userId, index) => ({ participantId: p.id, userId, role: index === 0 ? 'captain' : 'player' })),
        ),
      });
      // evt_cup: team_01 … team_16 registered in that order, a minute apart.
      await tx.participant.createMany({
        data: CUP_TEAMS.map((n, index) => ({ id: `par_cup_${n}`, eventId: 'evt_cup', teamId: `team_${n}`, status: 'registered', selectedGroupIds: [], createdAt: at(260 + index), updatedAt: at(260 + index) })),
      });
      await tx.lineupMember.createMany({
        data: CUP_TEAMS.flatMap((n) => [
          { participantId: `par_cup_${n}`, userId: `usr_${n}a`, role: 'captain' },
          { participantId: `par_cup_${n}`, userId: `usr_${n}b`, role: 'player' },
        ]),
      });

      // Matches. evt_open: mtc_open_1 (completed, alpha vs bravo) and mtc_open_2 (delta placed).
      type MatchSeed = { id: string; eventId: string; stageId: string; groupId: string | null; a: string; b: string; status: string; minutes: number };
      const matches: MatchSeed[] = [
        { id: 'mtc_open_1', eventId: 'evt_open', stageId: 'stg_open_groups', groupId: 'grp_open_a', a: 'par_alpha', b: 'par_bravo', status: 'completed', minutes: 300 },
        { id: 'mtc_open_2', eventId: 'evt_open', stageId: 'stg_open_groups', groupId: 'grp_open_b', a: 'par_delta', b: 'par_alpha', status: 'scheduled', minutes: 400 },
      ];
      const pairs = [['alpha', 'bravo'], ['charlie', 'delta'], ['alpha', 'charlie'], ['bravo', 'delta'], ['alpha', 'delta'], ['bravo', 'charlie']];
      const addSeries = (evt: string, stageId: string, groupId: string | null, count: number, prefix: string, status: (n: number) => string) => {
        for (let n = 1; n <= count; n++) {
          const [a, b] = pairs[n % pairs.length];
          matches.push({ id: `${prefix}_${String(n).padStart(3, '0')}`, eventId: `evt_${evt}`, stageId, groupId, a: `par_${evt}_${a}`, b: `par_${evt}_${b}`, status: status(n), minutes: 1000 + n });
        }
      };
      // stg_live_a: 150 matches, the first 60 in group grp_live_a1; stg_live_b: 120.
      addSeries('live', 'stg_live_a', null, 150, 'mtc_live_a', (n) => (n <= 100 ? 'completed' : n <= 104 ? 'live' : 'scheduled'));
      addSeries('live', 'stg_live_b', null, 120, 'mtc_live_b', (n) => (n <= 80 ? 'completed' : 'scheduled'));
      for (const m of matches) if (m.stageId === 'stg_live_a' && Number(m.id.slice(-3)) <= 60) m.groupId = 'grp_live_a1';
      addSeries('done', 'stg_done_main', null, 250, 'mtc_done', () => 'completed');

      const rnd = random(20260105);
      const matchRows = matches.map((m) => {
        const completed = m.status === 'completed';
        const scoreA = completed ? (rnd(2) === 0 ? 1 : 0) : null;
        return {
          id: m.id,
          eventId: m.eventId,
          stageId: m.stageId,
          groupId: m.groupId,
          roundId: m.id === 'mtc_open_1' ? 'rnd_open_a1' : m.id === 'mtc_open_2' ? 'rnd_open_b1' : null,
          participantAId: m.a,
          participantBId: m.b,
          scoreA,
          scoreB: scoreA === null ? null : 1 - scoreA,
          bestOf: 1,
          status: m.status,
          scheduledAt: at(m.minutes),
          startedAt: completed || m.status === 'live' ? at(m.minutes + 5) : null,
          completedAt: completed ? at(m.minutes + 60) : null,
          streamUrl: m.id === 'mtc_open_1' ? 'https://twitch.example.test/demo-open' : null,
          createdAt: at(m.minutes),
        };
      });
      await tx.match.createMany({ data: matchRows });
      await tx.matchMap.createMany({
        data: matchRows.map((m, index) => ({
          matchId: m.id,
          position: 1,
          mapId: `map_${MAPS[index % MAPS.length]}`,
          scoreA: m.scoreA === null ? null : m.scoreA ? 13 : 13 - 2 - rnd(9),
          scoreB: m.scoreB === null ? null : m.scoreB ? 13 : 13 - 2 - rnd(9),
          winner: m.scoreA === null ? null : m.scoreA ? 'a' : 'b',
        })),
      });

      // Player statistics of every completed match: five players a side.
      const lineupOf = new Map(participants.map((p) => [p.id, rosters[p.teamId.replace('team_', '')]]));
      const displayNameOf = new Map([...named, ...extra].map((u) => [u.id, u.displayName]));
      const stats = matchRows
        .filter((m) => m.status === 'completed')
        .flatMap((m, mi) => {
          const rounds = 20 + (mi % 6);
          const aRounds = m.scoreA ? 13 : rounds - 13;
          return (['a', 'b'] as const).flatMap((side) =>
            lineupOf.get(side === 'a' ? m.participantAId : m.participantBId)!.map((userId) => {
              const won = side === 'a' ? m.scoreA === 1 : m.scoreB === 1;
              const kills = 8 + rnd(18);
              const deaths = 8 + rnd(14);
              const survived = Math.max(0, rounds - deaths);
              return {
                matchId: m.id,
                profileId: `prf_${userId.slice(4)}`,
                eventId: m.eventId,
                stageId: m.stageId,
                groupId: m.groupId,
                userId,
                displayName: displayNameOf.get(userId)!,
                roundsPlayed: rounds,
                roundsWon: side === 'a' ? aRounds : rounds - aRounds,
                won,
                kills,
                deaths,
                assists: 2 + rnd(8),
                headshots: Math.floor(kills * (0.3 + rnd(40) / 100)),
                openingKills: rnd(5),
                openingDeaths: rnd(5),
                plants: side === 'a' ? rnd(5) : rnd(2),
                defuserDisables: side === 'b' ? rnd(3) : rnd(2),
                clutchSituations: rnd(4),
                clutchWins: rnd(2),
                kastRounds: Math.min(rounds, Math.floor(rounds * (0.55 + rnd(30) / 100))),
                survivedRounds: survived,
                damage: kills * 85 + rnd(400),
              };
            }),
          );
        });
      await tx.playerMatchStat.createMany({ data: stats });

      await tx.invitation.createMany({
        data: [
          { id: 'inv_open_1', eventId: 'evt_open', teamId: 'team_charlie', stageId: 'stg_open_groups', groupId: 'grp_open_b', status: 'pending', createdAt: at(250) },
          // For bob (a player of team_alpha) to accept or decline: alpha takes part in neither evt_cup nor evt_draft.
          { id: 'inv_cup_alpha', eventId: 'evt_cup', teamId: 'team_alpha', status: 'pending', message: 'Join the Demo Spring Cup!', createdAt: at(251) },
          { id: 'inv_draft_alpha', eventId: 'evt_draft', teamId: 'team_alpha', stageId: 'stg_draft_main', status: 'pending', createdAt: at(252) },
        ],
      });
      // A standing as an organiser entered it (the stage was not started by the platform, so nothing
      // recomputes it): its scores are those of the group's completed match.
      const open1 = matchRows.find((m) => m.id === 'mtc_open_1')!;
      const scored = (scoreFor: number, scoreAgainst: number) => ({ scoreFor, scoreAgainst, scoreDifference: scoreFor - scoreAgainst });
      await tx.standing.createMany({
        data: [
          { id: 'std_open_a_alpha', eventId: 'evt_open', stageId: 'stg_open_groups', groupId: 'grp_open_a', participantId: 'par_alpha', rank: 1, played: 1, wins: 1, points: 3, ...scored(open1.scoreA!, open1.scoreB!) },
          { id: 'std_open_a_bravo', eventId: 'evt_open', stageId: 'stg_open_groups', groupId: 'grp_open_a', participantId: 'par_bravo', rank: 2, played: 1, losses: 1, points: 0, ...scored(open1.scoreB!, open1.scoreA!) },
          { id: 'std_open_b_delta', eventId: 'evt_open', stageId: 'stg_open_groups', groupId: 'grp_open_b', participantId: 'par_delta', rank: 1 },
        ],
      });
      await tx.broadcastConfig.create({
        data: { eventId: 'evt_open', streamUrl: 'https://twitch.example.test/demo', youtubeUrl: 'https://youtube.example.test/demo', overlayTheme: 'dark', primaryColor: '#ff5500', delaySeconds: 30 },
      });
      await tx.playday.create({ data: { id: 'pd_open_1', eventId: 'evt_open', name: 'Playday 1', date: at(300), liveMatchId: 'mtc_open_1', overlayScoreA: 1, overlayScoreB: 0 } });
      await tx.playdayStaff.createMany({
        data: [
          { playdayId: 'pd_open_1', userId: 'usr_alice', role: 'producer' },
          { playdayId: 'pd_open_1', userId: 'usr_erin', role: 'caster' },
        ],
      });
      await tx.eventMapPool.createMany({ data: MAPS.map((name, index) => ({ eventId: 'evt_open', mapId: `map_${name}`, position: index + 1 })) });
      await tx.vetoConfiguration.createMany({
        data: [
          {
            eventId: 'evt_open',
            bestOf: 1,
            steps: [
              { action: 'ban', team: 'a' }, { action: 'ban', team: 'b' }, { action: 'ban', team: 'a' },
              { action: 'ban', team: 'b' }, { action: 'ban', team: 'a' }, { action: 'ban', team: 'b' },
              { action: 'decider', team: null },
            ],
          },
        ],
      });

      // Match chat of mtc_open_1.
      await tx.chatMessage.createMany({
        data: [
          { id: 'msg_hello', matchId: 'mtc_open_1', type: 'text', actorType: 'user', actorId: 'usr_bob', content: 'Hello and good luck!', senderSide: 'a', visibility: 'public', revision: 3, createdAt: at(290) },
          { id: 'msg_deleted', matchId: 'mtc_open_1', type: 'text', actorType: 'user', actorId: 'usr_carol', content: null, senderSide: 'b', visibility: 'public', deleted: true, revision: 2, createdAt: at(291) },
        ],
      });
      await tx.chatReaction.createMany({
        data: [
          // Reactions are listed in the order each emoji was first used.
          { messageId: 'msg_hello', emoji: '🔥', actorType: 'application', actorId: 'app_demo', createdAt: at(292) },
          { messageId: 'msg_hello', emoji: '🔥', actorType: 'user', actorId: 'usr_bob', createdAt: at(293) },
          { messageId: 'msg_hello', emoji: '👍', actorType: 'user', actorId: 'usr_carol', createdAt: at(294) },
        ],
      });

      // Applications, entitlements, installations, tokens.
      await tx.application.createMany({
        data: [
          { id: 'app_demo', name: 'Demo App', ownerType: 'organisation', ownerId: 'org_demo', clientSecretHash: hashSecret(DEMO.clients.app_demo), grantedScopes: [...SCOPES], redirectUris: ['http://localhost:8765/callback'], createdAt: at(20) },
          { id: 'app_noesports', name: 'No Esports App', ownerType: 'organisation', ownerId: 'org_rival', clientSecretHash: hashSecret(DEMO.clients.app_noesports), grantedScopes: [...SCOPES], redirectUris: [], createdAt: at(21) },
          { id: 'app_transfer', name: 'Transfer App', ownerType: 'organisation', ownerId: 'org_demo', clientSecretHash: hashSecret(DEMO.clients.app_transfer), grantedScopes: [], redirectUris: [], createdAt: at(22) },
          // Beyond the interface's demo world: the data provider that publishes the esports data.
          { id: 'app_provider', name: 'Esports Data Provider', ownerType: 'organisation', ownerId: 'org_demo', clientSecretHash: hashSecret(DEMO.clients.app_provider), grantedScopes: [...PROVIDER_SCOPES], redirectUris: [], createdAt: at(23) },
        ],
      });
      await tx.entitlement.create({ data: { ownerType: 'organisation', ownerId: 'org_demo', name: 'esports_data' } });
      await tx.installation.createMany({
        data: [
          { id: 'ins_demo_org', applicationId: 'app_demo', targetType: 'organisation', targetId: 'org_demo', status: 'active', createdAt: at(30) },
          { id: 'ins_demo_bob', applicationId: 'app_demo', targetType: 'user', targetId: 'usr_bob', status: 'active', createdAt: at(31) },
          { id: 'ins_demo_carol', applicationId: 'app_demo', targetType: 'user', targetId: 'usr_carol', status: 'revoked', createdAt: at(32), revokedAt: at(40) },
          { id: 'ins_noesports_org', applicationId: 'app_noesports', targetType: 'organisation', targetId: 'org_rival', status: 'active', createdAt: at(33) },
        ],
      });
      const token = (id: string, plain: string, applicationId: string, actor: { userId?: string }, scopes: string[]) => ({
        id,
        tokenHash: sha256(plain),
        applicationId,
        actorType: actor.userId ? 'user' : 'application',
        userId: actor.userId ?? null,
        scopes,
        expiresAt: FAR_FUTURE,
      });
      await tx.accessToken.createMany({
        data: [
          token('tok_demo_app', DEMO.tokens.app, 'app_demo', {}, [...SCOPES]),
          token('tok_demo_readonly', DEMO.tokens.readonly, 'app_demo', {}, []),
          token('tok_demo_alice', DEMO.tokens.alice, 'app_demo', { userId: 'usr_alice' }, [...SCOPES]),
          token('tok_demo_bob', DEMO.tokens.bob, 'app_demo', { userId: 'usr_bob' }, [...SCOPES]),
          token('tok_demo_dave', DEMO.tokens.dave, 'app_demo', { userId: 'usr_dave' }, [...SCOPES]),
          token('tok_demo_noesports', DEMO.tokens.noesports, 'app_noesports', {}, [...SCOPES]),
          token('tok_demo_provider', DEMO.tokens.provider, 'app_provider', {}, [...PROVIDER_SCOPES]),
        ],
      });
      await tx.ownerTransfer.createMany({
        data: [
          { id: 'otr_pending', applicationId: 'app_transfer', fromOwnerType: 'organisation', fromOwnerId: 'org_demo', toOwnerType: 'organisation', toOwnerId: 'org_rival', status: 'pending', expiresAt: FAR_FUTURE },
          { id: 'otr_expired', applicationId: 'app_transfer', fromOwnerType: 'organisation', fromOwnerId: 'org_demo', toOwnerType: 'organisation', toOwnerId: 'org_rival', status: 'pending', expiresAt: new Date('2020-01-01T00:00:00.000Z') },
          { id: 'otr_done', applicationId: 'app_transfer', fromOwnerType: 'organisation', fromOwnerId: 'org_rival', toOwnerType: 'organisation', toOwnerId: 'org_demo', status: 'accepted', revision: 2, expiresAt: FAR_FUTURE, acceptedAt: at(60) },
        ],
      });
      await tx.webhookEndpoint.create({
        data: { id: 'whe_demo', applicationId: 'app_demo', name: 'Demo endpoint', url: 'https://hooks.example.test/demo', subscribedEvents: ['event.published', 'stage.created'], status: 'active', secret: 'whsec_ZGVtby13ZWJob29rLXNpZ25pbmctc2VjcmV0LTAwMDE=' },
      });
      const delivery = (id: string, status: string, extra: object) => ({
        id,
        applicationId: 'app_demo',
        installationId: 'ins_demo_org',
        endpointId: 'whe_demo',
        eventId: `evt_msg_${id.slice(4)}`,
        eventType: 'event.published',
        payload: { type: 'event.published', timestamp: at(500).toISOString(), data: { eventId: 'evt_open', revision: 5 } },
        status,
        createdAt: at(500),
        ...extra,
      });
      // Each delivery's attempt log is what the worker would have written: attemptCount attempts, the
      // last one's answer on the delivery, spaced by the default retry schedule.
      const succeeded = demoAttempts('dlv_succeeded', at(500), [[200, 143, 'ok']]);
      const dead = demoAttempts('dlv_dead', at(500), DEAD_LETTER_ATTEMPTS);
      const retrying = demoAttempts('dlv_retrying', at(500), [[503, 61, 'busy'], [503, 58, 'busy']]);
      await tx.webhookDelivery.createMany({
        data: [
          delivery('dlv_succeeded', 'succeeded', { attemptCount: 1, responseStatus: 200, deliveredAt: succeeded.endedAt, updatedAt: succeeded.endedAt }),
          delivery('dlv_dead', 'dead-letter', { attemptCount: 8, responseStatus: 500, errorCode: 'http_error', updatedAt: dead.endedAt }),
          delivery('dlv_retrying', 'failed', { attemptCount: 2, responseStatus: 503, errorCode: 'http_error', nextAttemptAt: FAR_FUTURE, updatedAt: retrying.endedAt }),
        ],
      });
      await tx.webhookAttempt.createMany({ data: [...succeeded.attempts, ...dead.attempts, ...retrying.attempts] });
    },
    { timeout: 120_000, maxWait: 60_000 },
  );
  // Published esports data arrives the way a provider's does: through the import.
  await importEsportsData(database, JSON.parse(await readFile(fromRoot('prisma/seed/esports-demo.json'), 'utf8')), 'demo-world');
}
