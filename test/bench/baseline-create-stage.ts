// Hand-written Koa + pg POST /api/v2/events/{eventId}/stages doing the same checks and the same
// transaction as the platform: token, scope, installation, Idempotency-Key record, event row lock,
// If-Match, stage insert, first-stage pointer, revision compare-and-swap, change-log row.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import type pg from 'pg';
import { authenticate, beginRequest } from './baseline-auth.ts';

const FORMATS = ['single_elimination', 'double_elimination', 'round_robin', 'swiss', 'league', 'ffa'];
const newId = (prefix: string) => `${prefix}_${randomBytes(15).toString('base64url')}`;

export function createStageHandler(pool: pg.Pool) {
  return async (ctx: Context) => {
    const { fail } = beginRequest(ctx);
    const eventId = ctx.path.split('/')[4];
    const token = await authenticate(pool, ctx);
    if (!token) return fail(401, 'invalid_token', 'invalid token');
    if (!token.scopes.includes('event.structure:manage')) return fail(403, 'forbidden', 'missing scope');
    const installed = await pool.query({
      name: 'baseline_installation',
      text: `SELECT 1 FROM "Installation" i WHERE i."applicationId" = $1 AND i.status = 'active' AND (
               (i."targetType" = 'event' AND i."targetId" = $2) OR
               (i."targetType" = 'organisation' AND i."targetId" = (SELECT "organisationId" FROM "Event" WHERE id = $2)))`,
      values: [token.applicationId, eventId],
    });
    if (!installed.rowCount) return fail(403, 'forbidden', 'missing installation');
    const key = ctx.get('idempotency-key');
    if (!key) return fail(400, 'validation_failed', 'idempotency-key required');
    const expected = /^"(\d+)"$/.exec(ctx.get('if-match'));
    if (!ctx.get('if-match')) return fail(428, 'precondition_required', 'if-match required');
    if (!expected) return fail(412, 'precondition_failed', 'weak or invalid');
    let body: { name?: unknown; format?: unknown; bestOf?: unknown };
    try {
      body = JSON.parse(await getRawBody(ctx.req, { limit: '1mb', encoding: 'utf8' }));
    } catch {
      return fail(400, 'validation_failed', 'malformed JSON');
    }
    if (typeof body.name !== 'string' || !body.name || typeof body.format !== 'string' || !FORMATS.includes(body.format) || ![1, 2, 3, 5, 7].includes(body.bestOf as number)) {
      return fail(400, 'validation_failed', 'invalid body');
    }
    const requestHash = createHash('sha256').update(JSON.stringify({ eventId, body })).digest('hex');
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query({
        name: 'baseline_idem_insert',
        text: `INSERT INTO "IdempotencyRecord" ("applicationId", method, route, key, "requestHash", state, "expiresAt") VALUES ($1, 'POST', 'createStage', $2, $3, 'in_progress', now() + interval '24 hours')`,
        values: [token.applicationId, key, requestHash],
      });
      const [event] = (await client.query({ name: 'baseline_lock', text: `SELECT id, "organisationId", revision FROM "Event" WHERE id = $1 FOR UPDATE`, values: [eventId] })).rows;
      if (!event) {
        await client.query('ROLLBACK');
        return fail(404, 'not_found', 'no event');
      }
      if (event.revision !== Number(expected[1])) {
        await client.query('ROLLBACK');
        return fail(412, 'precondition_failed', 'stale');
      }
      const [{ position }] = (await client.query({ name: 'baseline_position', text: `SELECT COALESCE(MAX(position), 0) + 1 AS position FROM "Stage" WHERE "eventId" = $1`, values: [eventId] })).rows;
      const stageId = newId('stg');
      await client.query({
        name: 'baseline_stage',
        text: `INSERT INTO "Stage" (id, "eventId", name, format, "bestOf", position) VALUES ($1, $2, $3, $4, $5, $6)`,
        values: [stageId, eventId, body.name, body.format, body.bestOf, position],
      });
      await client.query({ name: 'baseline_first', text: `UPDATE "Event" SET "firstStageId" = $2 WHERE id = $1 AND "firstStageId" IS NULL`, values: [eventId, stageId] });
      await client.query({ name: 'baseline_cas', text: `UPDATE "Event" SET revision = revision + 1, "updatedAt" = now() WHERE id = $1 AND revision = $2`, values: [eventId, event.revision] });
      const revision = event.revision + 1;
      await client.query({
        name: 'baseline_changelog',
        text: `INSERT INTO "ChangeLog" (id, type, "organisationId", "eventId", "resourceType", "resourceId", revision, payload) VALUES ($1, 'stage.created', $2, $3, 'stage', $4, $5, $6)`,
        values: [`chg_${randomUUID().replace(/-/g, '')}`, event.organisationId, eventId, stageId, revision, JSON.stringify({ stageId, eventId, revision })],
      });
      const result = { resourceId: stageId, revision, updated: true };
      await client.query({
        name: 'baseline_idem_complete',
        text: `UPDATE "IdempotencyRecord" SET state = 'completed', "responseStatus" = 201, "responseBody" = $4 WHERE "applicationId" = $1 AND method = 'POST' AND route = 'createStage' AND key = $2 AND "requestHash" = $3`,
        values: [token.applicationId, key, requestHash, JSON.stringify(result)],
      });
      await client.query('COMMIT');
      ctx.status = 201;
      ctx.set('ETag', `"${revision}"`);
      ctx.body = { data: result };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  };
}
