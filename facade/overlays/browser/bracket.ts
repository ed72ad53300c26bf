// /overlays/bracket?token=…&stageId=…: an elimination stage's bracket drawn by brackets-viewer, or a
// group stage's standings tables (round robin, league, swiss, free-for-all), kept live from the
// gateway: each result moves the winner on, each table as the platform ranks it.
import { OverlayApi, pageParams, TokenRefused, type Row } from './api.ts';
import { Live } from './live.ts';
import { REFUSED } from './status.ts';
import { drawsBracket, toViewerData } from './bracket-model.ts';

declare global {
  interface Window {
    bracketsViewer: { render(data: unknown, config?: Record<string, unknown>): Promise<void> };
  }
}

const OPPONENT = 'participantId name score result forfeit';
const SOURCE = '... on SeedSource { type seed } ... on MatchSource { type matchId }';
const MATCH_FEED = `subscription BracketMatches($eventId: ID!, $after: String) {
  matchChanged(eventId: $eventId, after: $after) {
    cursor
    match { id stageId status isFreeWin roundNumber position bracket opponentA { ${OPPONENT} } opponentB { ${OPPONENT} } sourceA { ${SOURCE} } sourceB { ${SOURCE} } }
  }
}`;
const STANDINGS_FEED = `subscription BracketStandings($eventId: ID!, $stageId: ID, $after: String) {
  standingsChanged(eventId: $eventId, stageId: $stageId, after: $after) {
    cursor groupId standings { participantId name rank played wins draws losses points scoreDifference qualified }
  }
}`;
const EVENT_FEED = `subscription BracketStage($eventId: ID!, $after: String) {
  eventChanged(eventId: $eventId, after: $after) { cursor type }
}`;

const TABLE_COLUMNS: Array<[string, string]> = [
  ['rank', '#'],
  ['name', 'Team'],
  ['played', 'P'],
  ['wins', 'W'],
  ['draws', 'D'],
  ['losses', 'L'],
  ['scoreDifference', '+/−'],
  ['points', 'Pts'],
];

let stage: Row | null = null;
const matches = new Map<string, Row>();
const tables = new Map<string | null, Row[]>();
let groups: Row[] = [];
let drawing: number | null = null;

function element(tag: string, className: string, text?: string): HTMLElement {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function drawTables(): void {
  const container = document.getElementById('tables')!;
  const sections = (groups.length ? groups : [{ id: null, name: '' }]).map((group) => {
    const section = element('section', 'standings');
    section.dataset.group = group.id ?? '';
    if (group.name) section.append(element('h2', 'group-name', group.name));
    const table = document.createElement('table');
    const head = table.createTHead().insertRow();
    for (const [, label] of TABLE_COLUMNS) head.append(element('th', '', label));
    const body = table.createTBody();
    for (const standing of tables.get(group.id) ?? []) {
      const row = body.insertRow();
      row.dataset.participant = standing.participantId;
      if (standing.qualified) row.className = 'qualified';
      for (const [field] of TABLE_COLUMNS) row.insertCell().textContent = String(standing[field] ?? '');
    }
    section.append(table);
    return section;
  });
  container.replaceChildren(...sections);
}

function draw(): void {
  drawing = null;
  if (!stage) return;
  document.getElementById('stage-name')!.textContent = stage.name;
  const bracket = document.getElementById('bracket')!;
  if (!drawsBracket(stage.format)) return drawTables();
  const stageMatches = [...matches.values()];
  if (stageMatches.length === 0) {
    bracket.replaceChildren(element('p', 'idle', 'The bracket is drawn when the stage starts.'));
    return;
  }
  void window.bracketsViewer.render(toViewerData(stage, stageMatches), { selector: '#bracket', clear: true, participantOriginPlacement: 'before', showSlotsOrigin: false });
  bracket.dataset.revision = String(Number(bracket.dataset.revision ?? 0) + 1);
}

/** Many results at once (a correction resets a path) are drawn once, at the next frame. */
function redraw(): void {
  drawing ??= requestAnimationFrame(draw);
}

async function main(): Promise<void> {
  const params = pageParams();
  const api = new OverlayApi(params.get('token') ?? '');
  const live = new Live(api.token);
  const fail = (error: unknown) => live.stop(error instanceof TokenRefused ? REFUSED : error instanceof Error ? error.message : String(error));
  try {
    const stageId = params.get('stageId')!;
    const eventId = await api.eventId();
    const base = `/api/v1/events/${encodeURIComponent(eventId)}`;
    const load = async () => {
      stage = (await api.read(`${base}/stages/${encodeURIComponent(stageId)}`)).data;
      if (drawsBracket(stage!.format)) {
        const rows = await api.all(`${base}/matches?stageId=${encodeURIComponent(stageId)}`);
        matches.clear();
        for (const match of rows) matches.set(match.id, match);
      } else {
        groups = await api.all(`${base}/groups?stageId=${encodeURIComponent(stageId)}`);
        const rows = await api.all(`${base}/standings?stageId=${encodeURIComponent(stageId)}`);
        tables.clear();
        for (const row of rows) tables.set(row.groupId, [...(tables.get(row.groupId) ?? []), row]);
      }
      redraw();
    };
    await load();
    const reload = () => void load().catch(fail);
    if (drawsBracket(stage!.format)) {
      live.follow({
        query: MATCH_FEED,
        variables: { eventId },
        onMessage: (message) => {
          if (message.match.stageId !== stageId) return;
          matches.set(message.match.id, message.match);
          redraw();
        },
        reread: reload,
      });
    } else {
      live.follow({
        query: STANDINGS_FEED,
        variables: { eventId, stageId },
        onMessage: (message) => {
          // A message holds a table's first 100 rows: a larger one is read whole.
          if (message.standings.length >= 100) return reload();
          tables.set(message.groupId, message.standings);
          redraw();
        },
        reread: reload,
      });
    }
    // A stage that starts, is seeded or completes changes what is drawn: read it again.
    live.follow({
      query: EVENT_FEED,
      variables: { eventId },
      onMessage: (message) => {
        if (String(message.type).startsWith('stage.')) reload();
      },
      reread: () => undefined,
    });
  } catch (error) {
    fail(error);
  }
}

void main();
