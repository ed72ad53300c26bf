// Metered usage as the application sees it: units per UTC day and installation over a date range.
import type { SubgraphContext } from '../../../platform/domain/context.ts';
import { managedApplication } from '../../../platform/domain/application-access.ts';
import { validationFailed } from '../../../platform/api/errors.ts';
import { timestampIssue } from '../../../platform/api/input-safety.ts';

import type { z } from 'zod';
import type { usageDayView, usageReportView } from '../views.ts';
import { METRICS } from '../vocabulary.ts';

export const MAX_RANGE_DAYS = 366;

export type UsageDay = z.output<typeof usageDayView>;
export type UsageReport = z.output<typeof usageReportView>;
type Metric = UsageReport['metric'];

function parseDay(field: string, value: string): Date {
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00.000Z`) : new Date(Number.NaN);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
    throw validationFailed(`${field} must be a date written YYYY-MM-DD.`, [{ field, issue: 'not a YYYY-MM-DD date' }]);
  }
  const issue = timestampIssue(date);
  if (issue) throw validationFailed(`${field} ${issue}.`, [{ field, issue }]);
  return date;
}

const USAGE_SQL = `
  SELECT to_char(day, 'YYYY-MM-DD') AS day, "installationId", SUM(units)::int AS units
  FROM "UsageRecord"
  WHERE "applicationId" = $1 AND metric = $2 AND day BETWEEN $3::date AND $4::date
  GROUP BY day, "installationId"
  ORDER BY day, "installationId"`;

/** The first and last day of the current UTC month, YYYY-MM-DD. */
export function currentMonth(now = new Date()): { from: string; to: string } {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0));
  return { from: first.toISOString().slice(0, 10), to: last.toISOString().slice(0, 10) };
}

const isMetric = (metric: string): metric is Metric => (METRICS as readonly string[]).includes(metric);

export async function usageOf(ctx: SubgraphContext, applicationId: string, metric: string, fromArg: string | null | undefined, toArg: string | null | undefined): Promise<UsageReport> {
  const month = currentMonth();
  const from = fromArg ?? month.from;
  const to = toArg ?? month.to;
  // Usage is the application's own business, as its installations and webhooks are.
  await managedApplication(ctx, applicationId);
  if (!isMetric(metric)) {
    throw validationFailed(`metric must be one of ${METRICS.join(', ')}.`, [{ field: 'metric', issue: `must be one of ${METRICS.join(', ')}` }]);
  }
  const start = parseDay('from', from);
  const end = parseDay('to', to);
  if (end < start) throw validationFailed('to must not be before from.', [{ field: 'to', issue: 'before from' }]);
  if ((end.getTime() - start.getTime()) / 86_400_000 >= MAX_RANGE_DAYS) {
    throw validationFailed(`The range spans at most ${MAX_RANGE_DAYS} days.`, [{ field: 'to', issue: `more than ${MAX_RANGE_DAYS} days after from` }]);
  }
  const days = await ctx.sql<UsageDay>(USAGE_SQL, [applicationId, metric, from, to]);
  return { metric, from, to, total: days.reduce((sum, day) => sum + day.units, 0), days };
}
