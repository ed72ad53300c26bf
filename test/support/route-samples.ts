// Real requests for every route of the table, with the status each must answer: the OpenAPI test
// checks their responses against the documented schemas, the execution-path test runs them both ways.
// A new route without samples fails the OpenAPI test.
import { createHash, randomUUID } from 'node:crypto';
import { ELIGIBLE_STATUSES } from '../../subgraphs/competitions/stages/settings.ts';
import { bearer, type TestServer } from './server.ts';

/** A path may be looked up when the sample runs: the id of something an earlier sample created. */
export type Sample = { path: string | (() => Promise<string>); init?: RequestInit | (() => Promise<RequestInit>); status: number };

export const samplePath = (sample: Sample): Promise<string> => (typeof sample.path === 'function' ? sample.path() : Promise.resolve(sample.path));

export interface SampleState {
  revisionOf(eventId: string): Promise<number>;
  /** The newest pending owner transfer of an application (otr_none when there is none). */
  pendingTransferOf(appId: string): Promise<string>;
  messageRevisionOf(messageId: string): Promise<number>;
  /** A new access token of app_demo acting for the user (a fixture: as if the user had authorised it). */
  userToken(userId: string): Promise<string>;
  /** The event's last stage (by position). */
  latestStageOf(eventId: string): Promise<string>;
  /** The event's participants that a stage takes (registered, checked in, confirmed), in registration order. */
  eligibleParticipantsOf(eventId: string): Promise<string[]>;
  /** The organisation's newest overlay token (ovt_none when there is none). */
  latestOverlayTokenOf(organisationId: string): Promise<string>;
  /** An overlay token of the event that works (a fixture: as if an organiser had issued it). */
  overlayTokenFor(eventId: string): Promise<string>;
}

/** What the samples read of a running test server's database as they go. */
export const sampleStateOf = (server: () => TestServer): SampleState => ({
  revisionOf: async (eventId) => (await server().db.prisma.event.findUniqueOrThrow({ where: { id: eventId } })).revision,
  pendingTransferOf: async (applicationId) =>
    (await server().db.prisma.ownerTransfer.findFirst({ where: { applicationId, status: 'pending' }, orderBy: { createdAt: 'desc' } }))?.id ?? 'otr_none',
  messageRevisionOf: async (id) => (await server().db.prisma.chatMessage.findUniqueOrThrow({ where: { id } })).revision,
  latestStageOf: async (eventId) => (await server().db.prisma.stage.findFirst({ where: { eventId }, orderBy: { position: 'desc' } }))?.id ?? 'stg_none',
  eligibleParticipantsOf: async (eventId) =>
    (await server().db.prisma.participant.findMany({ where: { eventId, status: { in: ELIGIBLE_STATUSES } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] })).map((p) => p.id),
  latestOverlayTokenOf: async (organisationId) =>
    (await server().db.prisma.overlayToken.findFirst({ where: { organisationId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }))?.id ?? 'ovt_none',
  overlayTokenFor: async (eventId) => {
    // One per event, so that every sample of a run reads the same record (just used: no touch races the read).
    const token = `ovl_sample_${eventId}`;
    const data = { organisationId: 'org_demo', eventId, label: 'Samples', tokenHash: createHash('sha256').update(token).digest('hex'), prefix: token.slice(0, 12), expiresAt: new Date(Date.now() + 3_600_000), revokedAt: null, lastUsedAt: new Date() };
    await server().db.prisma.overlayToken.upsert({ where: { id: `ovt_sample_${eventId}` }, create: { id: `ovt_sample_${eventId}`, ...data }, update: data });
    return token;
  },
  userToken: async (userId) => {
    const token = `esp_at_sample_${randomUUID()}`;
    await server().db.prisma.accessToken.create({
      data: { id: `tok_sample_${randomUUID()}`, tokenHash: createHash('sha256').update(token).digest('hex'), applicationId: 'app_demo', actorType: 'user', userId, scopes: ['event:manage'], expiresAt: new Date(Date.now() + 3_600_000) },
    });
    return token;
  },
});

export function routeSamples({ revisionOf, pendingTransferOf, messageRevisionOf, userToken, latestStageOf, eligibleParticipantsOf, latestOverlayTokenOf, overlayTokenFor }: SampleState): Record<string, Sample[]> {
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
  /** A request of app_demo with a JSON body (if any) and more headers. */
  const json = (method: string, body?: unknown, headers: Record<string, string> = {}): RequestInit => ({
    method,
    headers: { ...app.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const keyed = (method: string, body?: unknown) => () => Promise.resolve(json(method, body, { 'idempotency-key': `openapi-${++keys}` }));
  /** A POST of an owner-transfer route with a fresh Idempotency-Key. */
  const transferInit = (token: string, body?: unknown) => () =>
    Promise.resolve<RequestInit>({
      method: 'POST',
      headers: { ...bearer(token), 'idempotency-key': `openapi-${++keys}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const chat = '/api/v2/matches/mtc_open_1/chat/messages';
  /** A reaction write with msg_hello's current revision. */
  const reactionInit = (token = 'demo-token-app') => async (): Promise<RequestInit> => ({ headers: { ...bearer(token), 'if-match': `"${await messageRevisionOf('msg_hello')}"` } });
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
    // Run after createStage (which adds a round robin stage to evt_open) and deleteParticipant.
    seedStage: [
      {
        path: async () => `/api/v2/events/evt_open/stages/${await latestStageOf('evt_open')}/seeding`,
        init: async () => writeInit('evt_open', { participantIds: (await eligibleParticipantsOf('evt_open')).reverse() })(),
        status: 200,
      },
      { path: '/api/v2/events/evt_draft/stages/stg_draft_main/seeding', init: writeInit('evt_draft', { participantIds: ['par_nobody'] }), status: 400 },
      { path: '/api/v2/events/evt_live/stages/stg_live_a/seeding', init: writeInit('evt_live', { participantIds: ['par_live_alpha'] }), status: 409 },
    ],
    startStage: [
      { path: async () => `/api/v2/events/evt_open/stages/${await latestStageOf('evt_open')}/start`, init: writeInit('evt_open'), status: 200 },
      { path: '/api/v2/events/evt_draft/stages/stg_draft_main/start', init: writeInit('evt_draft'), status: 409 },
      { path: '/api/v2/events/evt_draft/stages/stg_nope/start', init: writeInit('evt_draft'), status: 404 },
    ],
    getStage: [
      { path: '/api/v2/events/evt_open/stages/stg_open_groups', init: app, status: 200 },
      { path: '/api/v2/events/evt_open/stages/stg_live_a', init: app, status: 404 },
    ],
    listStageMatches: [
      { path: '/api/v2/events/evt_open/stages/stg_open_groups/matches?limit=1', init: app, status: 200 },
      { path: '/api/v2/events/evt_open/stages/stg_nope/matches', init: app, status: 404 },
    ],
    listStageStandings: [
      { path: '/api/v2/events/evt_open/stages/stg_open_groups/standings?groupId=grp_open_a', init: app, status: 200 },
      { path: '/api/v2/events/evt_open/stages/stg_open_groups/standings?groupId=grp_live_a1', init: app, status: 404 },
      { path: '/api/v2/events/evt_open/stages/stg_open_groups/standings?rank=1', init: app, status: 400 },
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
    reportMatch: [
      { path: '/api/v2/events/evt_open/matches/mtc_open_2', init: writeInit('evt_open', { status: 'live', scheduledAt: '2026-01-05T18:40:00Z' }), status: 200 },
      { path: '/api/v2/events/evt_open/matches/mtc_open_2', init: writeInit('evt_open', { maps: [{ mapId: 'map_nowhere' }] }), status: 400 },
      { path: '/api/v2/events/evt_open/matches/mtc_open_1', init: writeInit('evt_open', { status: 'live' }), status: 409 },
      { path: '/api/v2/events/evt_open/matches/mtc_nope', init: writeInit('evt_open', { scoreA: 1 }), status: 404 },
    ],
    replaceBroadcast: [
      { path: '/api/v2/events/evt_open/broadcast', init: writeInit('evt_open', { streamUrl: 'https://twitch.example.test/x', delaySeconds: 5 }), status: 200 },
      { path: '/api/v2/events/evt_open/broadcast', init: writeInit('evt_open', { primaryColor: 'blue' }), status: 400 },
    ],
    updatePlayday: [
      { path: '/api/v2/events/evt_open/playdays/pd_open_1', init: writeInit('evt_open', { overlayScoreA: 2 }), status: 200 },
      { path: '/api/v2/events/evt_open/playdays/pd_open_1', init: writeInit('evt_open', { liveMatchId: 'mtc_live_a_001' }), status: 400 },
    ],
    createEvent: [
      { path: '/api/v2/organisations/org_demo/events', init: keyed('POST', { name: 'OpenAPI Cup', timezone: 'Europe/Berlin', startsAt: '2027-04-10T09:00:00Z' }), status: 201 },
      { path: '/api/v2/organisations/org_demo/events', init: keyed('POST', { name: 'OpenAPI Cup', timezone: 'Nowhere/Land' }), status: 400 },
      { path: '/api/v2/organisations/org_demo/events', init: keyed('POST', { name: 'OpenAPI Cup', slug: 'open' }), status: 409 },
      { path: '/api/v2/organisations/org_rival/events', init: keyed('POST', { name: 'OpenAPI Cup' }), status: 403 },
    ],
    updateEvent: [
      { path: '/api/v2/events/evt_cup', init: writeInit('evt_cup', { description: 'From the samples.', primaryColor: '#1F6FEB', bannerUrl: null }), status: 200 },
      { path: '/api/v2/events/evt_cup', init: writeInit('evt_cup', { primaryColor: 'blue' }), status: 400 },
      { path: '/api/v2/events/evt_cup', init: writeInit('evt_cup', { name: 'Stale' }, { ifMatch: '"999"' }), status: 412 },
      { path: '/api/v2/events/evt_cup', init: writeInit('evt_cup', { slug: 'open' }), status: 409 },
    ],
    createParticipant: [
      { path: '/api/v2/events/evt_cup/participants', init: writeInit('evt_cup', { teamId: 'team_delta' }), status: 201 },
      { path: '/api/v2/events/evt_cup/participants', init: writeInit('evt_cup', { teamId: 'team_01' }), status: 409 },
      { path: '/api/v2/events/evt_cup/participants', init: writeInit('evt_cup', { teamId: 'team_nope' }), status: 400 },
      { path: '/api/v2/events/evt_cup/participants', init: async () => ({ ...(await writeInit('evt_cup', { teamId: 'team_bravo' })()), headers: { ...app.headers, 'content-type': 'application/json', 'idempotency-key': `openapi-${++keys}` } }), status: 428 },
    ],
    acceptInvitation: [
      { path: '/api/v2/events/evt_cup/invitations/inv_cup_alpha/accept', init: transferInit('demo-token-alice'), status: 404 },
      { path: '/api/v2/events/evt_cup/invitations/inv_cup_alpha/accept', init: transferInit('demo-token-bob'), status: 201 },
      { path: '/api/v2/events/evt_cup/invitations/inv_cup_alpha/accept', init: transferInit('demo-token-bob'), status: 409 },
    ],
    declineInvitation: [
      { path: '/api/v2/events/evt_draft/invitations/inv_draft_alpha/decline', init: transferInit('demo-token-bob'), status: 200 },
      { path: '/api/v2/events/evt_draft/invitations/inv_draft_alpha/decline', init: transferInit('demo-token-bob'), status: 409 },
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
      { path: '/api/v2/developer/apps/app_demo/usage?metric=esports_calls', init: { headers: bearer('demo-token-dave') }, status: 403 },
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
      { path: '/api/v2/developer/apps/app_demo/installations', init: { headers: bearer('demo-token-dave') }, status: 403 },
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
    revokeToken: [
      { path: '/oauth/revoke', init: form('token=esp_at_not-a-token', { authorization: basic }), status: 200 },
      { path: '/oauth/revoke', init: form('token_type_hint=access_token', { authorization: basic }), status: 400 },
      { path: '/oauth/revoke', init: form('token=esp_at_not-a-token&client_id=app_demo&client_secret=x'), status: 401 },
    ],
    introspectToken: [
      { path: '/oauth/introspect', init: form('token=demo-token-app', { authorization: basic }), status: 200 },
      { path: '/oauth/introspect', init: form('token=esp_at_not-a-token&token_type_hint=refresh_token', { authorization: basic }), status: 200 },
      { path: '/oauth/introspect', init: form('token=demo-token-app&token_type_hint=id_token', { authorization: basic }), status: 400 },
      { path: '/oauth/introspect', init: form('token=demo-token-app&client_id=app_demo&client_secret=x'), status: 401 },
    ],
    listMyAuthorizations: [
      { path: '/api/v2/users/me/authorizations', init: { headers: bearer('demo-token-alice') }, status: 200 },
      { path: '/api/v2/users/me/authorizations?limit=0', init: { headers: bearer('demo-token-alice') }, status: 400 },
      { path: '/api/v2/users/me/authorizations', init: app, status: 403 },
    ],
    revokeMyAuthorization: [
      // Erin's own token, made for the sample: revoking it touches no demo token other samples use.
      { path: '/api/v2/users/me/authorizations/app_demo', init: async () => ({ method: 'DELETE', headers: bearer(await userToken('usr_erin')) }), status: 200 },
      { path: '/api/v2/users/me/authorizations/app_noesports', init: { method: 'DELETE', headers: bearer('demo-token-alice') }, status: 404 },
      { path: '/api/v2/users/me/authorizations/app_demo', init: { method: 'DELETE', ...app }, status: 403 },
    ],
      // Webhooks: reads first, then the writes (the log changes as the worker makes attempts).
    listWebhookEventTypes: [{ path: '/api/v2/developer/webhook-event-types', status: 200 }],
    listWebhookEndpoints: [
      { path: '/api/v2/developer/apps/app_demo/webhook-endpoints', init: app, status: 200 },
      { path: '/api/v2/developer/apps/app_noesports/webhook-endpoints', init: app, status: 404 },
      { path: '/api/v2/developer/apps/app_demo/webhook-endpoints', init: { headers: bearer('demo-token-dave') }, status: 403 },
    ],
    getWebhookEndpoint: [
      { path: '/api/v2/developer/apps/app_demo/webhook-endpoints/whe_demo', init: app, status: 200 },
      { path: '/api/v2/developer/apps/app_demo/webhook-endpoints/whe_nope', init: app, status: 404 },
    ],
    listWebhookDeliveries: [
      { path: '/api/v2/developer/apps/app_demo/webhook-deliveries', init: app, status: 200 },
      { path: '/api/v2/developer/apps/app_demo/webhook-deliveries?status=dead-letter&endpointId=whe_demo&eventType=event.published', init: app, status: 200 },
      { path: '/api/v2/developer/apps/app_demo/webhook-deliveries?status=lost', init: app, status: 400 },
    ],
    getWebhookDelivery: [
      { path: '/api/v2/developer/apps/app_demo/webhook-deliveries/dlv_dead', init: app, status: 200 },
      { path: '/api/v2/developer/apps/app_demo/webhook-deliveries/dlv_nope', init: app, status: 404 },
    ],
    listWebhookDeliveryAttempts: [
      { path: '/api/v2/developer/apps/app_demo/webhook-deliveries/dlv_dead/attempts', init: app, status: 200 },
      { path: '/api/v2/developer/apps/app_demo/webhook-deliveries/dlv_nope/attempts', init: app, status: 404 },
    ],
    createWebhookEndpoint: [
      { path: '/api/v2/developer/apps/app_demo/webhook-endpoints', init: keyed('POST', { name: 'Samples', url: 'https://hooks.example.com/samples', subscribedEvents: ['stage.created'] }), status: 201 },
      { path: '/api/v2/developer/apps/app_demo/webhook-endpoints', init: keyed('POST', { name: 'Samples', url: 'http://hooks.example.com/samples', subscribedEvents: ['stage.created'] }), status: 400 },
      { path: '/api/v2/developer/apps/app_demo/webhook-endpoints', init: keyed('POST', { name: 'Samples', url: 'https://hooks.example.com/samples', subscribedEvents: ['nope'] }), status: 400 },
    ],
    updateWebhookEndpoint: [
      { path: '/api/v2/developer/apps/app_demo/webhook-endpoints/whe_demo', init: json('PATCH', { description: 'Sampled' }, { 'if-match': '"1"' }), status: 200 },
      { path: '/api/v2/developer/apps/app_demo/webhook-endpoints/whe_demo', init: json('PATCH', { description: 'Sampled' }, { 'if-match': '"1"' }), status: 412 },
      { path: '/api/v2/developer/apps/app_demo/webhook-endpoints/whe_demo', init: json('PATCH', { description: 'Sampled' }), status: 428 },
    ],
    rotateWebhookEndpointSecret: [
      { path: '/api/v2/developer/apps/app_demo/webhook-endpoints/whe_demo/rotate-secret', init: json('POST'), status: 200 },
      { path: '/api/v2/developer/apps/app_demo/webhook-endpoints/whe_nope/rotate-secret', init: json('POST'), status: 404 },
    ],
    testWebhookEndpoint: [
      { path: '/api/v2/developer/apps/app_demo/webhook-endpoints/whe_demo/test', init: json('POST'), status: 201 },
      { path: '/api/v2/developer/apps/app_demo/webhook-endpoints/whe_nope/test', init: json('POST'), status: 404 },
    ],
    recoverWebhookDeliveries: [
      { path: '/api/v2/developer/apps/app_demo/webhook-endpoints/whe_demo/recover', init: json('POST', { since: '2099-01-01T00:00:00Z' }), status: 200 },
      { path: '/api/v2/developer/apps/app_demo/webhook-endpoints/whe_demo/recover', init: json('POST', { since: 'soon' }), status: 400 },
    ],
    redeliverWebhookDelivery: [
      { path: '/api/v2/developer/apps/app_demo/webhook-deliveries/dlv_dead/redeliver', init: keyed('POST'), status: 201 },
      { path: '/api/v2/developer/apps/app_demo/webhook-deliveries/dlv_retrying/redeliver', init: keyed('POST'), status: 409 },
      { path: '/api/v2/developer/apps/app_demo/webhook-deliveries/dlv_dead/redeliver', init: json('POST'), status: 400 },
    ],
    deleteWebhookEndpoint: [
      { path: '/api/v2/developer/apps/app_demo/webhook-endpoints/whe_demo', init: json('DELETE'), status: 200 },
      { path: '/api/v2/developer/apps/app_demo/webhook-endpoints/whe_demo', init: json('DELETE'), status: 404 },
    ],
    v1GetOrganisation: [
      { path: '/api/v1/organisation', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 200 },
      { path: '/api/v1/organisation', init: { headers: { 'x-api-key': 'nope' } }, status: 401 },
    ],
    v1GetOverlayToken: [
      { path: '/api/v1/overlay-token', init: async () => ({ headers: { 'x-overlay-token': await overlayTokenFor('evt_live') } }), status: 200 },
      { path: '/api/v1/overlay-token', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 404 },
      { path: '/api/v1/overlay-token', init: { headers: { 'x-overlay-token': 'ovl_nope' } }, status: 401 },
    ],
    v1ListEvents: [
      { path: '/api/v1/events?limit=2', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 200 },
      { path: '/api/v1/events?state=paused', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 400 },
    ],
    v1GetEvent: [
      { path: '/api/v1/events/evt_open', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 200 },
      { path: '/api/v1/events/evt_rival', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 404 },
    ],
    v1ListStages: [
      { path: '/api/v1/events/evt_open/stages', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 200 },
      { path: '/api/v1/events/evt_rival/stages', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 404 },
    ],
    v1GetStage: [
      { path: '/api/v1/events/evt_open/stages/stg_open_groups', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 200 },
      { path: '/api/v1/events/evt_open/stages/stg_nope', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 404 },
    ],
    v1ListGroups: [
      { path: '/api/v1/events/evt_open/groups?stageId=stg_open_groups', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 200 },
      { path: '/api/v1/events/evt_open/groups?limit=0', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 400 },
    ],
    v1GetGroup: [
      { path: '/api/v1/events/evt_open/groups/grp_open_a', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 200 },
      { path: '/api/v1/events/evt_open/groups/grp_live_a1', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 404 },
    ],
    v1ListRounds: [
      { path: '/api/v1/events/evt_open/rounds?groupId=grp_open_a', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 200 },
      { path: '/api/v1/events/evt_open/rounds?stageId=', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 400 },
    ],
    v1GetRound: [
      { path: '/api/v1/events/evt_open/rounds/rnd_open_a1', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 200 },
      { path: '/api/v1/events/evt_open/rounds/rnd_nope', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 404 },
    ],
    v1ListParticipants: [
      { path: '/api/v1/events/evt_open/participants', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 200 },
      { path: '/api/v1/events/evt_open/participants?status=x', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 400 },
    ],
    v1GetParticipant: [
      { path: '/api/v1/events/evt_open/participants/par_bravo', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 200 },
      { path: '/api/v1/events/evt_open/participants/par_nope', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 404 },
    ],
    v1ListInvitations: [
      { path: '/api/v1/events/evt_open/invitations', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 200 },
      { path: '/api/v1/events/evt_rival/invitations', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 404 },
    ],
    v1GetInvitation: [
      { path: '/api/v1/events/evt_open/invitations/inv_open_1', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 200 },
      { path: '/api/v1/events/evt_open/invitations/inv_nope', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 404 },
    ],
    v1GetBroadcast: [
      { path: '/api/v1/events/evt_open/broadcast', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 200 },
      { path: '/api/v1/events/evt_done/broadcast', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 404 },
    ],
    v1ListPlaydays: [
      { path: '/api/v1/events/evt_open/playdays', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 200 },
      { path: '/api/v1/events/evt_open/playdays?limit=101', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 400 },
    ],
    v1GetPlayday: [
      { path: '/api/v1/events/evt_open/playdays/pd_open_1', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 200 },
      { path: '/api/v1/events/evt_open/playdays/pd_nope', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 404 },
    ],
    v1ListMatches: [
      { path: '/api/v1/events/evt_live/matches?stageId=stg_live_a&status=completed&limit=3', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 200 },
      { path: '/api/v1/events/evt_live/matches?status=x', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 400 },
    ],
    v1GetMatch: [
      { path: '/api/v1/events/evt_open/matches/mtc_open_1', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 200 },
      { path: '/api/v1/events/evt_open/matches/mtc_nope', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 404 },
    ],
    v1ListStandings: [
      { path: '/api/v1/events/evt_open/standings?stageId=stg_open_groups', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 200 },
      { path: '/api/v1/events/evt_open/standings?rank=1', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 400 },
    ],
    v1GetUser: [
      { path: '/api/v1/users/usr_bob', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 200 },
      { path: '/api/v1/users/usr_erin', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 404 },
    ],
    createOrganisationApiKey: [
      { path: '/api/v2/organisations/org_demo/api-keys', init: { method: 'POST', ...{ headers: { ...bearer('demo-token-alice'), 'content-type': 'application/json' } }, body: JSON.stringify({ name: 'Samples' }) }, status: 201 },
      { path: '/api/v2/organisations/org_demo/api-keys', init: { method: 'POST', headers: { ...app.headers, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Samples' }) }, status: 403 },
    ],
    listOrganisationApiKeys: [
      { path: '/api/v2/organisations/org_demo/api-keys', init: { headers: bearer('demo-token-alice') }, status: 200 },
      { path: '/api/v2/organisations/org_demo/api-keys?limit=0', init: { headers: bearer('demo-token-alice') }, status: 400 },
    ],
    rotateOrganisationApiKey: [
      { path: '/api/v2/organisations/org_demo/api-keys/key_demo_spare/rotate', init: { method: 'POST', headers: { ...bearer('demo-token-alice'), 'content-type': 'application/json' }, body: JSON.stringify({ graceSeconds: 60 }) }, status: 201 },
      { path: '/api/v2/organisations/org_demo/api-keys/key_nope/rotate', init: { method: 'POST', headers: bearer('demo-token-alice') }, status: 404 },
    ],
    revokeOrganisationApiKey: [
      { path: '/api/v2/organisations/org_demo/api-keys/key_demo_spare', init: { method: 'DELETE', headers: bearer('demo-token-alice') }, status: 200 },
      { path: '/api/v2/organisations/org_demo/api-keys/key_nope', init: { method: 'DELETE', headers: bearer('demo-token-alice') }, status: 404 },
    ],
    createOverlayToken: [
      { path: '/api/v2/organisations/org_demo/overlay-tokens', init: { method: 'POST', headers: { ...bearer('demo-token-alice'), 'content-type': 'application/json' }, body: JSON.stringify({ eventId: 'evt_live', label: 'Samples', expiresIn: 3600 }) }, status: 201 },
      { path: '/api/v2/organisations/org_demo/overlay-tokens', init: { method: 'POST', headers: { ...bearer('demo-token-alice'), 'content-type': 'application/json' }, body: JSON.stringify({ eventId: 'evt_live', label: 'Samples', expiresIn: 31 * 86_400 }) }, status: 400 },
      { path: '/api/v2/organisations/org_demo/overlay-tokens', init: { method: 'POST', headers: { ...bearer('demo-token-readonly'), 'content-type': 'application/json' }, body: JSON.stringify({ eventId: 'evt_live', label: 'Samples', expiresIn: 3600 }) }, status: 403 },
    ],
    listOverlayTokens: [
      { path: '/api/v2/organisations/org_demo/overlay-tokens', init: { headers: bearer('demo-token-alice') }, status: 200 },
      { path: '/api/v2/organisations/org_demo/overlay-tokens?limit=0', init: { headers: bearer('demo-token-alice') }, status: 400 },
    ],
    revokeOverlayToken: [
      { path: async () => `/api/v2/organisations/org_demo/overlay-tokens/${await latestOverlayTokenOf('org_demo')}`, init: { method: 'DELETE', headers: bearer('demo-token-alice') }, status: 200 },
      { path: '/api/v2/organisations/org_demo/overlay-tokens/ovt_nope', init: { method: 'DELETE', headers: bearer('demo-token-alice') }, status: 404 },
    ],
    // Owner transfers, in route-table order: app_demo is offered to org_rival and app_noesports to
    // org_demo (the creations answer 201), otr_pending is accepted by dave, app_demo's offer declined
    // by dave and app_noesports' cancelled by dave, who manages its owner.
    createOwnerTransfer: [
      { path: '/api/v2/developer/apps/app_transfer/owner-transfers', init: transferInit('demo-token-alice', { toOwner: { type: 'organisation', id: 'org_rival' } }), status: 409 },
      { path: '/api/v2/developer/apps/app_transfer/owner-transfers', init: transferInit('demo-token-app', { toOwner: { type: 'organisation', id: 'org_rival' } }), status: 403 },
      { path: '/api/v2/developer/apps/app_transfer/owner-transfers', init: { method: 'POST', headers: { ...bearer('demo-token-alice'), 'content-type': 'application/json' }, body: '{"toOwner":{"type":"organisation","id":"org_rival"}}' }, status: 400 },
      { path: '/api/v2/developer/apps/app_demo/owner-transfers', init: transferInit('demo-token-alice', { toOwner: { type: 'organisation', id: 'org_rival' }, expiresInDays: 3 }), status: 201 },
      { path: '/api/v2/developer/apps/app_noesports/owner-transfers', init: transferInit('demo-token-dave', { toOwner: { type: 'organisation', id: 'org_demo' } }), status: 201 },
    ],
    listOwnerTransfers: [
      { path: '/api/v2/developer/apps/app_transfer/owner-transfers', init: { headers: bearer('demo-token-alice') }, status: 200 },
      { path: '/api/v2/developer/apps/app_transfer/owner-transfers?status=expired', init: { headers: bearer('demo-token-dave') }, status: 200 },
      { path: '/api/v2/developer/apps/app_transfer/owner-transfers?status=lost', init: { headers: bearer('demo-token-alice') }, status: 400 },
      { path: '/api/v2/developer/apps/app_nope/owner-transfers', init: { headers: bearer('demo-token-alice') }, status: 404 },
    ],
    getOwnerTransfer: [
      { path: '/api/v2/developer/apps/app_transfer/owner-transfers/otr_pending', init: { headers: bearer('demo-token-alice') }, status: 200 },
      { path: '/api/v2/developer/apps/app_transfer/owner-transfers/otr_pending', init: { headers: bearer('demo-token-noesports') }, status: 404 },
      { path: '/api/v2/developer/apps/app_transfer/owner-transfers/otr_nope', init: { headers: bearer('demo-token-alice') }, status: 404 },
    ],
    acceptOwnerTransfer: [
      { path: '/api/v2/developer/apps/app_transfer/owner-transfers/otr_expired/accept', init: transferInit('demo-token-dave'), status: 409 },
      { path: '/api/v2/developer/apps/app_transfer/owner-transfers/otr_done/accept', init: transferInit('demo-token-alice'), status: 409 },
      { path: '/api/v2/developer/apps/app_transfer/owner-transfers/otr_pending/accept', init: transferInit('demo-token-alice'), status: 403 },
      { path: '/api/v2/developer/apps/app_transfer/owner-transfers/otr_nope/accept', init: transferInit('demo-token-dave'), status: 404 },
      { path: '/api/v2/developer/apps/app_transfer/owner-transfers/otr_pending/accept', init: { method: 'POST', headers: bearer('demo-token-dave') }, status: 400 },
      { path: '/api/v2/developer/apps/app_transfer/owner-transfers/otr_pending/accept', init: transferInit('demo-token-dave'), status: 200 },
    ],
    declineOwnerTransfer: [
      { path: () => pendingTransferOf('app_demo').then((id) => `/api/v2/developer/apps/app_demo/owner-transfers/${id}/decline`), init: transferInit('demo-token-alice'), status: 403 },
      { path: () => pendingTransferOf('app_demo').then((id) => `/api/v2/developer/apps/app_demo/owner-transfers/${id}/decline`), init: transferInit('demo-token-dave'), status: 200 },
    ],
    cancelOwnerTransfer: [
      { path: () => pendingTransferOf('app_noesports').then((id) => `/api/v2/developer/apps/app_noesports/owner-transfers/${id}/cancel`), init: transferInit('demo-token-alice'), status: 403 },
      { path: () => pendingTransferOf('app_noesports').then((id) => `/api/v2/developer/apps/app_noesports/owner-transfers/${id}/cancel`), init: transferInit('demo-token-dave'), status: 200 },
      { path: '/api/v2/developer/apps/app_transfer/owner-transfers/otr_expired/cancel', init: transferInit('demo-token-dave'), status: 409 },
    ],
    listChatMessages: [
      { path: '/api/v2/matches/mtc_open_1/chat/messages', init: app, status: 200 },
      { path: '/api/v2/matches/mtc_open_1/chat/messages?limit=1', init: { headers: { ...app.headers, 'svc-installation-id': 'ins_demo_org' } }, status: 200 },
      { path: '/api/v2/matches/mtc_open_1/chat/messages?limit=0', init: app, status: 400 },
      { path: '/api/v2/matches/mtc_open_1/chat/messages', init: { headers: bearer('demo-token-noesports') }, status: 404 },
      { path: '/api/v2/matches/mtc_nope/chat/messages', init: app, status: 404 },
    ],
    addChatReaction: [
      { path: `${chat}/msg_hello/reactions/${encodeURIComponent('👍')}`, init: reactionInit(), status: 200 },
      { path: `${chat}/msg_hello/reactions/${encodeURIComponent('👍')}`, init: reactionInit(), status: 200 },
      { path: `${chat}/msg_hello/reactions/${encodeURIComponent('👍')}`, init: app, status: 428 },
      { path: `${chat}/msg_hello/reactions/${encodeURIComponent('👍')}`, init: { headers: { ...app.headers, 'if-match': '"1"' } }, status: 412 },
      { path: `${chat}/msg_hello/reactions/thumbs`, init: reactionInit(), status: 400 },
      { path: `${chat}/msg_deleted/reactions/${encodeURIComponent('👍')}`, init: { headers: { ...app.headers, 'if-match': '"2"' } }, status: 404 },
      { path: `${chat}/msg_hello/reactions/${encodeURIComponent('👍')}`, init: reactionInit('demo-token-noesports'), status: 403 },
    ],
    removeChatReaction: [
      { path: `${chat}/msg_hello/reactions/${encodeURIComponent('🔥')}`, init: reactionInit(), status: 200 },
      { path: `${chat}/msg_hello/reactions/${encodeURIComponent('🔥')}`, init: reactionInit(), status: 200 },
      { path: `${chat}/msg_hello/reactions/${encodeURIComponent('🔥')}`, init: app, status: 428 },
      { path: `${chat}/msg_deleted/reactions/${encodeURIComponent('🔥')}`, init: { headers: { ...app.headers, 'if-match': '"2"' } }, status: 404 },
    ],
    v1ListMaps: [
      { path: '/api/v1/maps?limit=2', init: { headers: { 'x-api-key': 'demo-org-key-0001' } }, status: 200 },
      { path: '/api/v1/maps?apiKey=demo-org-key-0001', status: 400 },
      { path: '/api/v1/maps', status: 401 },
    ],
};
}
