// Stage settings, seeding and start: the tournament engine (tournament/) wired into the event write.
// PUT …/seeding stores a manual order; POST …/start freezes the seeding, generates the rounds and
// matches and stores them with the stage's status `running`, all in the event's one transaction
// (events/event-write.ts), so the event revision moves once. docs/tournaments.md describes the rules.
import type { SubgraphContext } from '../../../platform/domain/context.ts';
import { newId } from '../../../platform/api/crypto.ts';
import type { Db, SqlStatement } from '../../../platform/db/database.ts';
import { ApiError, notFound, validationFailed } from '../../../platform/api/errors.ts';
import { validate } from '../../../platform/api/validation.ts';
import { runEventWrite, type Change, type WriteResult } from '../events/event-write.ts';
import { stageSeedingInput } from '../inputs.ts';
import { previousStageOrder } from './chain.ts';
import { computeStageStandings, readStandingsInputs, standingsWrites } from './standings.ts';
import { INSERT_GENERATED_MATCHES_SQL, INSERT_GENERATED_ROUNDS_SQL, SEED_STAGE_SQL, START_STAGE_SQL, type StandingsMatchRow } from './statements.ts';
import type { Prisma } from '../../../platform/db/generated/client.ts';
import { assertOpen, conflict, sameJson, unchanged, type Preconditions } from '../events/write-rules.ts';
import { ELIGIBLE_STATUSES, fieldSize, storedSettings, type StageSeeding } from './settings.ts';
import {
  drawRandomSeed,
  generateStage,
  manualSeeding,
  playsGroups,
  resolvedSettings,
  seedParticipants,
  snakeDistribution,
  type GeneratedMatch,
  type GeneratedStage,
  type MatchSource,
  type StageFormat,
  type StageGroupInput,
} from '../tournament/index.ts';

// What starting a stage reads of it (a cold read: Prisma's model API), its type derived from the select.
const STAGE_SELECT = { id: true, eventId: true, format: true, bestOf: true, status: true, settings: true, seeding: true } as const satisfies Prisma.StageSelect;
type StageRow = Prisma.StageGetPayload<{ select: typeof STAGE_SELECT }>;

/** Seeds dealt over the groups in a snake (1→A, 2→B, 3→B, 4→A, …). */
function dealtOver(groupIds: string[], participantIds: string[]) {
  const dealt = snakeDistribution(participantIds.length, groupIds.length);
  return groupIds.map((groupId, g) => ({ groupId, participantIds: participantIds.filter((_, index) => dealt[index] === g) }));
}

async function stageOf(db: Db, eventId: string, stageId: string): Promise<StageRow> {
  const stage = await db.stage.findUnique({ where: { id: stageId }, select: STAGE_SELECT });
  if (!stage || stage.eventId !== eventId) throw notFound('The stage');
  return stage;
}

function assertPending(stage: StageRow) {
  if (stage.status !== 'pending') throw conflict(`The stage has already started (it is ${stage.status}): its seeding is frozen.`, 'stage_started');
}

/**
 * The stage's participants in registration order (createdAt, id), withdrawn and disqualified left
 * out: those who chose a group of this stage (Participant.selectedGroupIds) when any did, else every
 * eligible participant of the event. groupOf: the first group of the stage each one chose.
 */
async function stageParticipants(db: Db, eventId: string, groupIds: string[]) {
  const rows = await db.participant.findMany({
    where: { eventId, status: { in: ELIGIBLE_STATUSES } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { id: true, selectedGroupIds: true },
  });
  const ofStage = new Set(groupIds);
  const groupOf = new Map<string, string>();
  for (const row of rows) {
    const group = row.selectedGroupIds.find((groupId) => ofStage.has(groupId));
    if (group) groupOf.set(row.id, group);
  }
  const ids = (groupOf.size ? rows.filter((row) => groupOf.has(row.id)) : rows).map((row) => row.id);
  return { ids, groupOf };
}

const stageGroups = (db: Db, stageId: string) => db.group.findMany({ where: { stageId }, orderBy: [{ position: 'asc' }, { id: 'asc' }], select: { id: true } });

/** round_robin, swiss and ffa stages with groups play each group separately. */
const groupsPlayed = (format: string, groupIds: string[]) => playsGroups(format as StageFormat) && groupIds.length > 0;

// ── seeding ──────────────────────────────────────────────────────────────────
export function seedStage(ctx: SubgraphContext, eventId: string, stageId: string, body: unknown, pre: Preconditions): Promise<WriteResult> {
  const input = validate(stageSeedingInput, body);
  return runEventWrite(ctx, {
    operation: 'seedStage',
    eventId,
    ...pre,
    request: { stageId, input },
    async plan(db, event) {
      assertOpen(event);
      const stage = await stageOf(db, eventId, stageId);
      assertPending(stage);
      const groupIds = (await stageGroups(db, stageId)).map((group) => group.id);
      const { ids } = await stageParticipants(db, eventId, groupIds);
      let seeding: StageSeeding;
      if (input.groups) {
        if (!groupsPlayed(stage.format, groupIds)) {
          throw validationFailed('Only a stage with groups takes a seeding by groups: send participantIds.', [{ field: 'groups', issue: 'the stage plays no groups' }]);
        }
        const unknown = Object.keys(input.groups).filter((groupId) => !groupIds.includes(groupId));
        // At most 20 details, as every validation answer (an error is not a copy of the request).
        if (unknown.length) throw validationFailed('groups names groups that are not groups of this stage.', unknown.slice(0, 20).map((groupId) => ({ field: `groups.${groupId}`, issue: 'not a group of this stage' })));
        const missing = groupIds.filter((groupId) => !input.groups![groupId]);
        if (missing.length) throw validationFailed('groups must name every group of the stage.', missing.map((groupId) => ({ field: `groups.${groupId}`, issue: 'missing group' })));
        const groups = groupIds.map((groupId) => ({ groupId, participantIds: input.groups![groupId] }));
        const order = manualSeeding(ids, groups.flatMap((group) => group.participantIds), 'groups');
        seeding = { method: 'manual', randomSeed: null, participantIds: order, groups };
      } else {
        seeding = { method: 'manual', randomSeed: null, participantIds: manualSeeding(ids, input.participantIds!, 'participantIds'), groups: null };
      }
      const settings = { ...storedSettings(stage), seeding: 'manual' as const };
      if (sameJson(stage.seeding, seeding) && sameJson(stage.settings, settings)) return unchanged(stageId);
      return {
        resourceId: stageId,
        changed: true,
        changes: [{ type: 'stage.seeded', resourceType: 'stage', resourceId: stageId, payload: { stageId, participantIds: seeding.participantIds, groups: seeding.groups } }],
        statements: [{ text: SEED_STAGE_SQL, values: [stageId, JSON.stringify(settings), JSON.stringify(seeding)] }],
      };
    },
  });
}

// ── start ────────────────────────────────────────────────────────────────────
/** The frozen seeding of a stage about to start, from its settings' method. */
async function freezeSeeding(ctx: SubgraphContext, stage: StageRow, eventId: string, groupIds: string[]): Promise<StageSeeding> {
  const method = storedSettings(stage).seeding ?? 'registration';
  const grouped = groupsPlayed(stage.format, groupIds);
  if (method === 'previous_stage') {
    // The previous stage's qualifiers, dealt over this stage's groups in a snake. Their order as it
    // stood (qualifierIds, withdrawn ones included) is kept with the seeding: corrections of the
    // previous stage are checked against it (chain.ts); reads do not show it.
    const { qualifierIds, participantIds } = await previousStageOrder(ctx, eventId, stage.id);
    const groups = grouped ? dealtOver(groupIds, participantIds) : null;
    return { method, randomSeed: null, participantIds, groups, qualifierIds } as StageSeeding;
  }
  const { ids, groupOf } = await stageParticipants(ctx.db, eventId, groupIds);
  let participantIds: string[];
  let randomSeed: number | null = null;
  let groups: StageSeeding['groups'] = null;
  if (method === 'manual') {
    const manual = stage.seeding as StageSeeding | null;
    if (!manual) throw conflict('The stage is seeded manually but has no seeding yet: PUT …/seeding first.', 'seeding_missing');
    try {
      participantIds = manualSeeding(ids, manual.participantIds, 'participantIds');
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      throw conflict(`The manual seeding no longer matches the stage's participants (${error.message}): PUT …/seeding again.`, 'seeding_outdated');
    }
    if (grouped && manual.groups) groups = manual.groups;
  } else {
    if (method === 'random') randomSeed = drawRandomSeed();
    participantIds = seedParticipants(method, ids, { randomSeed: randomSeed ?? undefined });
  }
  if (grouped && !groups) {
    const seedIndex = new Map(participantIds.map((id, index) => [id, index]));
    if (participantIds.every((id) => groupOf.has(id))) {
      // Everyone chose a group: play there, best seed first.
      groups = groupIds.map((groupId) => ({ groupId, participantIds: participantIds.filter((id) => groupOf.get(id) === groupId) }));
    } else {
      // Nobody chose: the seeds are dealt over the groups in a snake.
      const dealt = snakeDistribution(participantIds.length, groupIds.length);
      groups = groupIds.map((groupId, g) => ({ groupId, participantIds: participantIds.filter((_, index) => dealt[index] === g) }));
    }
    for (const group of groups) group.participantIds.sort((a, b) => seedIndex.get(a)! - seedIndex.get(b)!);
  }
  return { method, randomSeed, participantIds, groups };
}

export function startStage(ctx: SubgraphContext, eventId: string, stageId: string, pre: Preconditions): Promise<WriteResult> {
  return runEventWrite(ctx, {
    operation: 'startStage',
    eventId,
    ...pre,
    request: { stageId },
    async plan(db, event) {
      assertOpen(event);
      const stage = await stageOf(db, eventId, stageId);
      assertPending(stage);
      if (await db.match.count({ where: { stageId } })) throw conflict('The stage already has matches: it cannot be generated again.', 'stage_has_matches');
      const groupIds = (await stageGroups(db, stageId)).map((group) => group.id);
      const seeding = await freezeSeeding(ctx, stage, eventId, groupIds);
      const format = stage.format as StageFormat;
      const settings = resolvedSettings(format, storedSettings(stage), fieldSize(seeding));
      const groups: StageGroupInput[] | undefined = seeding.groups?.map((group) => ({ key: group.groupId, participants: group.participantIds }));
      const generated = generateStage({ format, settings, participants: seeding.participantIds, groups });

      const stored = generatedStatements(eventId, stageId, stage.bestOf, generated);
      // The standings exist from the start: every participant at zero (byes already counted).
      const inputs = await readStandingsInputs(ctx, eventId, stage, null);
      const standings = computeStageStandings({ format, settings, seeding, matches: generated.matches.map(standingsRowOf), adjustments: inputs.adjustments, final: false });
      const written = standingsWrites(eventId, stageId, standings, inputs.stored, inputs.adjustments);
      const changes: Change[] = [
        {
          type: 'stage.started',
          resourceType: 'stage',
          resourceId: stageId,
          payload: {
            stageId,
            format,
            seeding: { method: seeding.method, randomSeed: seeding.randomSeed, participantIds: seeding.participantIds },
            roundCount: generated.rounds.length,
            matchCount: generated.matches.length,
          },
        },
        ...written.changes,
      ];
      return {
        resourceId: stageId,
        changed: true,
        changes,
        statements: [
          { text: START_STAGE_SQL, values: [stageId, JSON.stringify(seeding)] },
          ...stored,
          ...written.statements,
        ],
      };
    },
  });
}

/** A generated match as the standings read it (byes are completed at the start). */
function standingsRowOf(match: GeneratedMatch): StandingsMatchRow {
  const duel = match.kind === 'duel' ? match : null;
  return {
    id: match.key,
    groupId: match.groupKey,
    status: match.status,
    participantAId: duel?.participantA ?? null,
    participantBId: duel?.participantB ?? null,
    scoreA: null,
    scoreB: null,
    forfeit: null,
    isFreeWin: match.isFreeWin,
    opponents: match.kind === 'ffa' ? match.opponents.map((participantId) => ({ participantId, place: match.winner === participantId ? 1 : null, points: null })) : null,
    bracket: match.bracket,
    roundNumber: match.roundNumber,
    winnerToMatchId: duel?.winnerTo?.matchKey ?? null,
    loserToMatchId: duel?.loserTo?.matchKey ?? null,
  };
}

/**
 * The statements that store generated rounds and matches of a stage: local keys become ids (group
 * keys already are group ids), one batched insert for the rounds and one for the matches.
 */
export function generatedStatements(eventId: string, stageId: string, bestOf: number, generated: GeneratedStage): SqlStatement[] {
  // Local keys become ids; group keys already are group ids.
  const roundIds = new Map(generated.rounds.map((round) => [round.key, newId('rnd')]));
  const matchIds = new Map(generated.matches.map((match) => [match.key, newId('mtc')]));
  const link = (target: { matchKey: string; slot: string } | null) => (target ? { matchId: matchIds.get(target.matchKey)!, slot: target.slot } : null);
  const source = (value: MatchSource | null) =>
    value === null ? null : value.type === 'seed' ? JSON.stringify({ type: 'seed', seed: value.seed }) : JSON.stringify({ type: value.type, matchId: matchIds.get(value.matchKey)! });
  const rows = generated.matches.map((match: GeneratedMatch) => {
    const duel = match.kind === 'duel' ? match : null;
    const winnerTo = duel ? link(duel.winnerTo) : null;
    const loserTo = duel ? link(duel.loserTo) : null;
    const opponents =
  match.kind === 'ffa'
    ? JSON.stringify(match.opponents.map((participantId) => ({ participantId, place: match.winner === participantId ? 1 : null, points: null })))
    : null;
    return {
  id: matchIds.get(match.key)!,
  groupId: match.groupKey,
  roundId: roundIds.get(match.roundKey)!,
  participantAId: duel?.participantA ?? null,
  participantBId: duel?.participantB ?? null,
  status: match.status,
  isFreeWin: match.isFreeWin,
  roundNumber: match.roundNumber,
  position: match.position,
  bracket: match.bracket,
  winnerToMatchId: winnerTo?.matchId ?? null,
  winnerToSlot: winnerTo?.slot ?? null,
  loserToMatchId: loserTo?.matchId ?? null,
  loserToSlot: loserTo?.slot ?? null,
  sourceA: duel ? source(duel.sourceA) : null,
  sourceB: duel ? source(duel.sourceB) : null,
  opponents,
    };
  });
  const column = <K extends keyof (typeof rows)[number]>(key: K) => rows.map((row) => row[key]);
  return [
    {
      text: INSERT_GENERATED_ROUNDS_SQL,
      values: [
        eventId,
        stageId,
        generated.rounds.map((round) => roundIds.get(round.key)!),
        generated.rounds.map((round) => round.groupKey),
        generated.rounds.map((round) => round.number),
        generated.rounds.map((round) => round.name),
        generated.rounds.map((round) => round.bracket),
      ],
    },
    {
      text: INSERT_GENERATED_MATCHES_SQL,
      values: [
        eventId,
        stageId,
        bestOf,
        column('id'),
        column('groupId'),
        column('roundId'),
        column('participantAId'),
        column('participantBId'),
        column('status'),
        column('isFreeWin'),
        column('position'),
        column('winnerToMatchId'),
        column('winnerToSlot'),
        column('loserToMatchId'),
        column('loserToSlot'),
        column('sourceA'),
        column('sourceB'),
        column('opponents'),
      ],
    },
  ];
}
