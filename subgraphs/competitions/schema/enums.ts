// The competitions subgraph's enums for output fields and arguments, declared once from the
// vocabularies the REST routes and inputs use (a generated input that names the same enum gets this
// type). Values are lower-case names, as in REST.
import { builder } from '../builder.ts';
import { enumType } from '../../../platform/graphql/zod-graphql.ts';
import { BRACKET_ORDER, EVENT_STATES, EVENT_VISIBILITIES, MATCH_STATUSES, STAGE_FORMATS } from '../../../platform/domain/competition-vocabulary.ts';
import { PARTICIPANT_STATUSES, STAGE_STATUSES } from '../inputs.ts';

export const EventVisibilityEnum = enumType(builder, 'EventVisibility', EVENT_VISIBILITIES, 'Who may see an event.');
export const EventStateEnum = enumType(builder, 'EventState', EVENT_STATES, 'Where an event is in its life.');
export const StageFormatEnum = enumType(builder, 'StageFormat', STAGE_FORMATS, 'How a stage is played.');
export const StageStatusEnum = enumType(builder, 'StageStatus', STAGE_STATUSES, 'Where a stage is: pending until it starts, running, completed after its last match.');
export const MatchStatusEnum = enumType(builder, 'MatchStatus', MATCH_STATUSES, 'A match status.');
export const BracketEnum = enumType(builder, 'Bracket', BRACKET_ORDER, 'A bracket of an elimination stage.');
export const ParticipantStatusEnum = enumType(builder, 'ParticipantStatus', PARTICIPANT_STATUSES, 'Registration status.');
export const MatchResultEnum = enumType(builder, 'MatchResult', ['win', 'loss', 'draw'], "An opponent's result once the match is completed.");
export const MatchSideEnum = enumType(builder, 'MatchSide', ['a', 'b'], 'A side of a match.');
export const ChatVisibilityEnum = enumType(builder, 'ChatVisibility', ['public', 'teams', 'staff'], 'Who reads a chat message: everyone who reads the match, its two teams, or the event staff.');
