// Real requests for every route of the table, with the status each must answer: the OpenAPI test
// checks their responses against the documented schemas, the execution-path test runs them both ways.
// A new route without samples fails the OpenAPI test.
import { bearer } from './server.ts';

export type Sample = { path: string; init?: RequestInit | (() => Promise<RequestInit>); status: number };

export function routeSamples(revisionOf: (eventId: string) => Promise<number>): Record<string, Sample[]> {
  const basic = `Basic ${Buffer.from('app_demo:demo-app-secret').toString('base64')}`;
  const form = (body: string, headers: Record<string, string> = {}): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
  });

  let keys = 0;
  /** A write with the event's current revision and a fresh Idempotency-Key. */
  const writeInit = (eventId: string, body?: unknown, options: { token?: string; ifMatch?: string } = {}) => async (): Promise<RequestInit> => ({
    headers: {
      ...bearer(options.token ?? 'demo-token-app'),
      'if-match': options.ifMatch ?? `"${await revisionOf(eventId)}"`,
      'idempotency-key': `openapi-${++keys}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const app = { headers: bearer('demo-token-app') };
  const esportsInit = (installation = 'ins_demo_org') => ({ headers: { ...bearer('demo-token-app'), 'svc-installation-id': installation } });

  return {
    publishEvent: [
      { path: '/api/v2/events/evt_draft/publish', init: writeInit('evt_draft'), status: 200 },
      { path: '/api/v2/events/evt_draft/publish', init: writeInit('evt_draft'), status: 409 },
      { path: '/api/v2/events/evt_open/publish', init: writeInit('evt_open', undefined, { ifMatch: '"1"' }), status: 412 },
    ],
    updateVetoSettings: [
      { path: '/api/v2/events/evt_open/settings/veto', init: writeInit('evt_open', { configurations: [{ bestOf: 1, steps: [] }] }), status: 200 },
      { path: '/api/v2/events/evt_open/settings/veto', init: writeInit('evt_open', { configurations: [{ bestOf: 9, steps: [] }] }), status: 400 },
    ],
    createStage: [
      { path: '/api/v2/events/evt_open/stages', init: writeInit('evt_open', { name: 'Docs', format: 'round_robin', bestOf: 1, groups: [{ name: 'A' }] }), status: 201 },
      { path: '/api/v2/events/evt_open/stages', init: writeInit('evt_open', { name: 'Docs', format: 'swiss', bestOf: 1 }, { token: 'demo-token-readonly' }), status: 403 },
      { path: '/api/v2/events/evt_nope/stages', init: writeInit('evt_open', { name: 'Docs', format: 'swiss', bestOf: 1 }), status: 404 },
    ],
    createInvitation: [
      { path: '/api/v2/events/evt_rival/invitations', init: writeInit('evt_rival', { teamId: 'team_delta' }, { token: 'demo-token-noesports' }), status: 201 },
      { path: '/api/v2/events/evt_open/invitations', init: writeInit('evt_open', { teamId: 'team_alpha' }), status: 409 },
    ],
    createStandingAdjustment: [
      { path: '/api/v2/events/evt_open/standing-adjustments', init: writeInit('evt_open', { participantId: 'par_alpha', stageId: 'stg_open_groups', points: 1 }), status: 201 },
    ],
    updateParticipant: [
      { path: '/api/v2/events/evt_open/participants/par_bravo', init: writeInit('evt_open', { action: 'status', status: 'checked_in' }), status: 200 },
      { path: '/api/v2/events/evt_open/participants/par_bravo', init: async () => ({ ...(await writeInit('evt_open', { action: 'status', status: 'confirmed' })()), headers: { ...app.headers, 'content-type': 'application/json' } }), status: 428 },
    ],
    changeLineup: [
      { path: '/api/v2/events/evt_open/participants/par_bravo/lineup', init: writeInit('evt_open', { operation: 'set_role', userId: 'usr_carol', role: 'captain', scope: 'event' }), status: 200 },
    ],
    deleteParticipant: [
      { path: '/api/v2/events/evt_open/participants/par_charlie', init: writeInit('evt_open'), status: 200 },
      { path: '/api/v2/events/evt_open/participants/par_alpha', init: writeInit('evt_open'), status: 409 },
    ],
    replacePlaydayStaff: [
      { path: '/api/v2/events/evt_open/playdays/pd_open_1/staff', init: writeInit('evt_open', { staff: [{ userId: 'usr_erin', role: 'caster' }] }), status: 200 },
    ],
    listOrganisationEvents: [
      { path: '/api/v2/organisations/org_demo/events?limit=2', init: app, status: 200 },
      { path: '/api/v2/organisations/org_rival/events', init: app, status: 403 },
      { path: '/api/v2/organisations/org_demo/events?state=nope', init: app, status: 400 },
    ],
    listEventPlayerStatistics: [
      { path: '/api/v2/events/evt_open/statistics/players?limit=3', init: app, status: 200 },
      { path: '/api/v2/events/evt_live/statistics/players', init: app, status: 400 },
      { path: '/api/v2/events/evt_rival/statistics/players', init: app, status: 404 },
    ],
    listEsportsEvents: [
      { path: '/api/v2/esports/events', init: esportsInit(), status: 200 },
      { path: '/api/v2/esports/events', init: app, status: 400 },
      { path: '/api/v2/esports/events', init: esportsInit('ins_noesports_org'), status: 403 },
    ],
    listEsportsEventMapStatistics: [
      { path: '/api/v2/esports/events/ese_major/statistics/maps?limit=2', init: esportsInit(), status: 200 },
      { path: '/api/v2/esports/events/ese_nope/statistics/maps', init: esportsInit(), status: 404 },
    ],
    listEsportsEventStages: [{ path: '/api/v2/esports/events/ese_major/stages', init: esportsInit(), status: 200 }],
    getEsportsGroup: [
      { path: '/api/v2/esports/events/ese_major/stages/ess_major_groups/groups/esg_major_a', init: esportsInit(), status: 200 },
      { path: '/api/v2/esports/events/ese_major/stages/ess_major_playoffs/groups/esg_major_a', init: esportsInit(), status: 404 },
    ],
    getEsportsMatch: [
      { path: '/api/v2/esports/matches/esm_final', init: esportsInit(), status: 200 },
      { path: '/api/v2/esports/matches/esm_nope', init: esportsInit(), status: 404 },
    ],
    getEsportsMatchStatistics: [{ path: '/api/v2/esports/matches/esm_final/statistics', init: esportsInit(), status: 200 }],
    getApplicationUsage: [
      { path: '/api/v2/developer/apps/app_demo/usage?metric=esports_calls&from=2026-01-01&to=2026-12-31', init: app, status: 200 },
      { path: '/api/v2/developer/apps/app_noesports/usage?metric=esports_calls&from=2026-01-01&to=2026-12-31', init: app, status: 404 },
      { path: '/api/v2/developer/apps/app_demo/usage?metric=esports_calls&from=2026-13-01', init: app, status: 400 },
      { path: '/api/v2/developer/apps/app_demo/usage?metric=esports_calls', init: app, status: 200 },
    ],
    getEvent: [
      { path: '/api/v2/events/evt_open', init: app, status: 200 },
      { path: '/api/v2/events/evt_rival', init: app, status: 404 },
      { path: '/api/v2/events/evt_open', init: { headers: { ...app.headers, 'if-none-match': '"not-current"' } }, status: 200 },
    ],
    listApplicationInstallations: [
      { path: '/api/v2/developer/apps/app_demo/installations', init: app, status: 200 },
      { path: '/api/v2/developer/apps/app_demo/installations?status=revoked&targetType=user', init: app, status: 200 },
      { path: '/api/v2/developer/apps/app_noesports/installations', init: app, status: 404 },
      { path: '/api/v2/developer/apps/app_demo/installations?status=paused', init: app, status: 400 },
    ],
    getUser: [
      { path: '/api/v2/users/usr_bob', init: app, status: 200 },
      { path: '/api/v2/users/usr_erin', init: app, status: 404 },
    ],
    getAuthContext: [
      { path: '/api/v2/auth/context', init: { headers: bearer('demo-token-app') }, status: 200 },
      { path: '/api/v2/auth/context?targetType=organisation&targetId=org_demo', init: { headers: bearer('demo-token-alice') }, status: 200 },
      { path: '/api/v2/auth/context?targetType=user&targetId=usr_carol', init: { headers: bearer('demo-token-app') }, status: 200 },
      { path: '/api/v2/auth/context?targetType=user', init: { headers: bearer('demo-token-app') }, status: 400 },
      { path: '/api/v2/auth/context', status: 401 },
    ],
    issueToken: [
      { path: '/oauth/token', init: form('grant_type=client_credentials', { authorization: basic }), status: 200 },
      { path: '/oauth/token', init: form('grant_type=client_credentials&client_id=app_demo&client_secret=demo-app-secret&scope=event%3Amanage'), status: 200 },
      { path: '/oauth/token', init: form('grant_type=client_credentials&scope=nope', { authorization: basic }), status: 400 },
      { path: '/oauth/token', init: form('grant_type=client_credentials&client_id=app_demo&client_secret=x'), status: 401 },
    ],
  };
}
