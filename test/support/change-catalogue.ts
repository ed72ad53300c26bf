// Every change a test server wrote, checked against the webhook catalogue when the server closes: a
// type the catalogue does not name, or a payload its JSON Schema refuses, fails the test file that
// produced it. Webhooks deliver the payload without the envelope's eventId and revision (subgraphs/workers/webhook-fanout.ts).
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { CHANGE_TYPES } from '../../platform/domain/change-catalogue.ts';
import type { TestDatabase } from './database.ts';

const ajv = new Ajv2020({ strict: false, allErrors: true });
const validators = new Map<string, ValidateFunction>(CHANGE_TYPES.map((type) => [type.name, ajv.compile(type.details)]));

export interface CatalogueViolation {
  sequence: string;
  type: string;
  details: unknown;
  issue: string;
}

/** Rows of the change log that the catalogue does not describe (at most `limit`). */
export async function catalogueViolations(db: TestDatabase, limit = 20): Promise<CatalogueViolation[]> {
  const violations: CatalogueViolation[] = [];
  let after = -1n;
  for (;;) {
    const rows = await db.prisma.changeLog.findMany({ where: { sequence: { gt: after } }, orderBy: { sequence: 'asc' }, take: 1000, select: { sequence: true, type: true, payload: true } });
    for (const row of rows) {
      const { eventId: _eventId, revision: _revision, ...details } = (row.payload ?? {}) as Record<string, unknown>;
      const validate = validators.get(row.type);
      const issue = !validate ? 'not in the webhook catalogue' : validate(details) ? null : ajv.errorsText(validate.errors);
      if (issue && violations.length < limit) violations.push({ sequence: String(row.sequence), type: row.type, details, issue });
    }
    if (rows.length < 1000) return violations;
    after = rows[rows.length - 1].sequence;
  }
}
