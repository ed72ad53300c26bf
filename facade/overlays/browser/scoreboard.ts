// /overlays/scoreboard?token=…&matchId=… (or &playdayId=…): the teams, the series score, the map
// being played and the match's state, on a transparent background. With playdayId it shows the
// playday's live match and follows it when the staff put another one on air, with the playday's
// overlay score when they set one.
import { OverlayApi, pageParams, ReadFailed, TokenRefused, type Row } from './api.ts';
import { Live } from './live.ts';
import { REFUSED } from './status.ts';

const MATCH_FIELDS = `id status bestOf scheduledAt startedAt completedAt
  opponentA { name logoUrl score result forfeit }
  opponentB { name logoUrl score result forfeit }
  maps { position mapName scoreA scoreB winner }`;

const MATCH_FEED = `subscription ScoreboardMatch($eventId: ID!, $matchId: ID, $after: String) {
  matchChanged(eventId: $eventId, matchId: $matchId, after: $after) { cursor match { ${MATCH_FIELDS} } }
}`;
const PLAYDAY_FEED = `subscription ScoreboardPlayday($eventId: ID!, $playdayId: ID, $after: String) {
  playdayChanged(eventId: $eventId, playdayId: $playdayId, after: $after) { cursor playday { liveMatchId overlayScoreA overlayScoreB } }
}`;
const BROADCAST_FEED = `subscription ScoreboardBroadcast($eventId: ID!, $after: String) {
  broadcastChanged(eventId: $eventId, after: $after) { cursor broadcast { primaryColor showScores } }
}`;

interface State {
  event: Row | null;
  broadcast: Row | null;
  match: Row | null;
  playday: Row | null;
  /** The match asked for, or the playday's live match. */
  matchId: string | null;
}

const state: State = { event: null, broadcast: null, match: null, playday: null, matchId: null };

function element(tag: string, className: string, text?: string): HTMLElement {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The map in play: the first without a winner; once every map listed is decided, the next one. */
export function currentMap(match: Row): string {
  if (match.status === 'completed') return 'Final';
  if (match.status === 'cancelled') return 'Cancelled';
  if (match.status !== 'live') {
    if (!match.scheduledAt) return 'Up next';
    const zone = state.event?.timezone ?? undefined;
    return new Date(match.scheduledAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', timeZone: zone });
  }
  const maps = [...(match.maps as Row[])].sort((a, b) => a.position - b.position);
  const playing = maps.find((map) => !map.winner);
  if (!playing) return `Map ${maps.length + 1}`;
  const score = playing.scoreA != null && playing.scoreB != null ? ` ${playing.scoreA}–${playing.scoreB}` : '';
  return `Map ${playing.position} · ${playing.mapName ?? ''}${score}`.trim();
}

// One image per logo address, kept across renders (each result re-renders the board): a logo is
// fetched once, and one that failed is not asked for again.
const logos = new Map<string, HTMLImageElement | null>();

function logoOf(url: string): HTMLImageElement | null {
  if (!logos.has(url)) {
    const logo = document.createElement('img');
    logo.className = 'logo';
    logo.alt = '';
    logo.referrerPolicy = 'no-referrer';
    logo.addEventListener('error', () => {
      logos.set(url, null);
      logo.remove();
    });
    logo.src = url;
    logos.set(url, logo);
  }
  return logos.get(url)!;
}

function team(side: 'a' | 'b', opponent: Row | null, score: number | null, showScores: boolean): HTMLElement {
  const box = element('div', `team team-${side}${opponent?.result === 'win' ? ' winner' : ''}`);
  const logo = opponent?.logoUrl ? logoOf(opponent.logoUrl) : null;
  if (logo) box.append(logo);
  box.append(element('span', `name name-${side}`, opponent?.name ?? 'TBD'));
  if (showScores) box.append(element('span', `score score-${side}`, score == null ? '0' : String(score)));
  return box;
}

function render(): void {
  const root = document.getElementById('overlay')!;
  const { match, event, broadcast, playday } = state;
  const colour = broadcast?.primaryColor ?? event?.primaryColor;
  if (colour) root.style.setProperty('--primary', colour);
  if (event?.secondaryColor) root.style.setProperty('--secondary', event.secondaryColor);
  if (!match) {
    root.replaceChildren(element('div', 'idle', playday ? 'No match on air' : ''));
    root.dataset.match = '';
    return;
  }
  const showScores = broadcast?.showScores !== false;
  const overlayScore = playday && playday.overlayScoreA != null && playday.overlayScoreB != null;
  const scoreA = overlayScore ? playday!.overlayScoreA : match.opponentA?.score;
  const scoreB = overlayScore ? playday!.overlayScoreB : match.opponentB?.score;
  const middle = element('div', 'centre');
  middle.append(element('span', `state state-${match.status}`, match.status === 'live' ? 'LIVE' : match.status === 'completed' ? 'FINAL' : ''));
  middle.append(element('span', 'map', currentMap(match)));
  middle.append(element('span', 'format', `BO${match.bestOf}`));
  const board = element('div', 'board');
  board.append(team('a', match.opponentA, scoreA, showScores), middle, team('b', match.opponentB, scoreB, showScores));
  if (event?.name) board.append(element('div', 'event-name', event.name));
  root.replaceChildren(board);
  root.dataset.match = match.id;
  root.dataset.status = match.status;
}

async function main(): Promise<void> {
  const params = pageParams();
  const api = new OverlayApi(params.get('token') ?? '');
  const live = new Live(api.token);
  try {
    const eventId = await api.eventId();
    const base = `/api/v1/events/${encodeURIComponent(eventId)}`;
    state.event = (await api.read(base)).data;
    const readBroadcast = async () => {
      state.broadcast = await api.read(`${base}/broadcast`).then((body) => body.data, (error) => (error instanceof ReadFailed && error.status === 404 ? null : Promise.reject(error)));
    };
    await readBroadcast();

    const readMatch = async () => {
      state.match = state.matchId ? (await api.read(`${base}/matches/${encodeURIComponent(state.matchId)}`)).data : null;
      render();
    };
    let stopMatch: (() => void) | null = null;
    const followMatch = (after: string | null) => {
      stopMatch?.();
      stopMatch = state.matchId
        ? live.follow(
            {
              query: MATCH_FEED,
              variables: { eventId, matchId: state.matchId },
              onMessage: (message) => {
                state.match = message.match;
                render();
              },
              reread: () => void readMatch().catch(fail),
            },
            after,
          )
        : null;
    };

    const playdayId = params.get('playdayId');
    if (playdayId) {
      const readPlayday = async () => {
        state.playday = (await api.read(`${base}/playdays/${encodeURIComponent(playdayId)}`)).data;
        if (state.playday!.liveMatchId !== state.matchId) {
          state.matchId = state.playday!.liveMatchId;
          followMatch(null);
          await readMatch();
        } else render();
      };
      await readPlayday();
      live.follow({
        query: PLAYDAY_FEED,
        variables: { eventId, playdayId },
        onMessage: (message) => {
          const switched = message.playday.liveMatchId !== state.matchId;
          state.playday = message.playday;
          if (!switched) return render();
          // The new match's changes are followed from this message on: none is missed or repeated.
          state.matchId = message.playday.liveMatchId;
          followMatch(message.cursor);
          void readMatch().catch(fail);
        },
        reread: () => void readPlayday().catch(fail),
      });
    } else {
      state.matchId = params.get('matchId');
      await readMatch();
      followMatch(null);
    }
    live.follow({
      query: BROADCAST_FEED,
      variables: { eventId },
      onMessage: (message) => {
        state.broadcast = message.broadcast;
        render();
      },
      reread: () => void readBroadcast().then(render, fail),
    });
  } catch (error) {
    fail(error);
  }

  function fail(error: unknown): void {
    live.stop(error instanceof TokenRefused ? REFUSED : error instanceof Error ? error.message : String(error));
  }
}

void main();
