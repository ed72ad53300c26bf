// The values the reference shows for parameters and bodies: the demo world's, so that a sample from
// /docs can be pasted against a fresh `npm start` (docs/demo-world.md) instead of Redoc's "string".
import type { RouteRow } from '../routes/table.ts';

/** A demo-world id for each path parameter, by name. */
const DEMO_IDS: Record<string, string> = {
  organisationId: 'org_demo',
  eventId: 'evt_open',
  stageId: 'stg_open_groups',
  groupId: 'grp_open_a',
  roundId: 'rnd_open_a1',
  matchId: 'mtc_open_1',
  participantId: 'par_alpha',
  invitationId: 'inv_open_1',
  playdayId: 'pd_open_1',
  messageId: 'msg_hello',
  reaction: '🔥',
  userId: 'usr_bob',
  appId: 'app_demo',
  endpointId: 'whe_demo',
  deliveryId: 'dlv_dead',
  transferId: 'otr_pending',
  keyId: 'key_demo_spare',
  applicationId: 'app_demo',
  // The demo world holds no overlay token: its id is the one POST …/overlay-tokens answered.
  tokenId: 'ovt_…',
};

/** The published esports data has ids of its own. */
const ESPORTS_IDS: Record<string, string> = { eventId: 'ese_major', stageId: 'ess_major_groups', groupId: 'esg_major_a', matchId: 'esm_final' };

/** The row's example request as method, path and query, when it names a concrete path (no "…"). */
function exampleTarget(row: RouteRow): { path: string; query: URLSearchParams } | null {
  const match = /^([A-Z]+) (\/\S*)/.exec(row.example?.request ?? '');
  if (!match || match[2].includes('…')) return null;
  const url = new URL(match[2], 'http://x');
  return { path: url.pathname, query: url.searchParams };
}

/** Example values of the row's path and query parameters: its example request's, else the demo world's ids. */
export function parameterExamples(row: RouteRow): { path: Record<string, string>; query: Record<string, string>; header: Record<string, string> } {
  const names = [...row.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const ids = row.path.startsWith('/api/v2/esports/') ? { ...DEMO_IDS, ...ESPORTS_IDS } : DEMO_IDS;
  const path: Record<string, string> = Object.fromEntries(names.filter((name) => ids[name]).map((name) => [name, ids[name]]));
  const target = exampleTarget(row);
  if (target) {
    const pattern = new RegExp(`^${row.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, '([^/]+)')}$`);
    const values = pattern.exec(target.path);
    names.forEach((name, index) => {
      if (values) path[name] = decodeURIComponent(values[index + 1]);
    });
  }
  // The demo application's installation on org_demo, which reads the published esports data.
  return { path, query: target ? Object.fromEntries(target.query) : {}, header: { 'svc-installation-id': 'ins_demo_org' } };
}

/** The row's example request body, when its example request is one (JSON). */
export function bodyExample(row: RouteRow): unknown {
  const request = row.example?.request;
  if (!request || !/^[[{]/.test(request.trim())) return undefined;
  try {
    return JSON.parse(request);
  } catch {
    return undefined;
  }
}
