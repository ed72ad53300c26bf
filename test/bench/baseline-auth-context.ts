// The hand-written baseline: Koa + pg doing the same read as GET /api/v2/auth/context (and, in
// baseline-create-stage.ts, the same transaction as POST …/stages) (the token by
// hash with its application's owner and the owner's entitlements, one statement) and answering the
// same body.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import pg from 'pg';
import { authenticate, beginRequest } from './baseline-auth.ts';
import { createStageHandler } from './baseline-create-stage.ts';
import { esportsMatchHandler } from './baseline-esports-match.ts';
import { eventListHandler } from './baseline-event-list.ts';
import { playerStatisticsHandler } from './baseline-player-statistics.ts';
import { v1MatchesHandler } from './baseline-v1-matches.ts';
import { v1StandingsHandler } from './baseline-v1-standings.ts';

export async function startBaseline(databaseUrl: string, port = 0) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
  const app = new Koa();
  const createStage = createStageHandler(pool);
  const esportsMatch = esportsMatchHandler(pool);
  const eventList = eventListHandler(pool);
  const playerStatistics = playerStatisticsHandler(pool);
  const v1Matches = v1MatchesHandler(pool);
  const v1Standings = v1StandingsHandler(pool);
  app.use(async (ctx) => {
    if (ctx.method === 'GET' && /^\/api\/v2\/esports\/matches\/[^/]+$/.test(ctx.path)) return esportsMatch(ctx);
    if (ctx.method === 'POST' && /^\/api\/v2\/events\/[^/]+\/stages$/.test(ctx.path)) return createStage(ctx);
    if (ctx.method === 'GET' && /^\/api\/v2\/organisations\/[^/]+\/events$/.test(ctx.path)) return eventList(ctx);
    if (ctx.method === 'GET' && /^\/api\/v2\/events\/[^/]+\/statistics\/players$/.test(ctx.path)) return playerStatistics(ctx);
    if (ctx.method === 'GET' && /^\/api\/v1\/events\/[^/]+\/matches$/.test(ctx.path)) return v1Matches(ctx);
    if (ctx.method === 'GET' && /^\/api\/v1\/events\/[^/]+\/standings$/.test(ctx.path)) return v1Standings(ctx);
    if (ctx.path !== '/api/v2/auth/context') {
      ctx.status = 404;
      return;
    }
    const { requestId, fail } = beginRequest(ctx);
    const token = await authenticate(pool, ctx);
    if (!token) return fail(401, 'invalid_token', 'The access token is missing, unknown, expired or revoked.');
    ctx.body = {
      data: {
        requestId,
        applicationId: token.applicationId,
        actor: token.actorType === 'user' ? { type: 'user', userId: token.userId } : { type: 'application', applicationId: token.applicationId },
        owner: { type: token.ownerType, id: token.ownerId },
        installation: null,
        scopes: [...token.scopes].sort(),
        permissions: [],
        entitlements: token.entitlements,
      },
    };
  });
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await pool.end();
    },
  };
}
