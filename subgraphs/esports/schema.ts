// The esports subgraph: published esports data and the metering of esports_calls.
import { createBuilder } from '../shared/builder.ts';
import { forbidden, validationFailed } from '../shared/errors.ts';

export const builder = createBuilder();

interface UsageRow {
  applicationId: string;
  installationId: string;
  metric: string;
  day: Date;
  units: number;
}

const UsageDay = builder.objectRef<UsageRow>('UsageDay').implement({
  description: 'Units of one metric used by an application through one installation on one UTC day.',
  fields: (t) => ({
    metric: t.exposeString('metric'),
    day: t.string({ resolve: (row) => row.day.toISOString().slice(0, 10) }),
    installationId: t.exposeID('installationId'),
    units: t.exposeInt('units'),
  }),
});

const METRICS = ['esports_calls'] as const;
const UsageMetric = builder.enumType('UsageMetric', { values: METRICS });

// Application is owned by the developer subgraph; this one adds what it meters.
builder.externalRef('Application', builder.selection<{ id: string }>('id')).implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    usage: t.field({
      type: [UsageDay],
      description: 'Metered usage per day and installation, oldest first. Only the application itself may read it.',
      args: {
        metric: t.arg({ type: UsageMetric, required: true }),
        from: t.arg.string({ required: true, description: 'First day, YYYY-MM-DD (UTC).' }),
        to: t.arg.string({ required: true, description: 'Last day, YYYY-MM-DD (UTC), at most 366 days after from.' }),
      },
      resolve: async (app, args, ctx) => {
        const authority = await ctx.authority();
        if (authority.applicationId !== app.id) throw forbidden('Usage is readable by the application itself only.', 'not_owner');
        const from = parseDay('from', args.from);
        const to = parseDay('to', args.to);
        if (to < from) throw validationFailed('to must not be before from.', [{ field: 'to', issue: 'before from' }]);
        if (to.getTime() - from.getTime() > 366 * 86_400_000) {
          throw validationFailed('The range may span at most 366 days.', [{ field: 'to', issue: 'range too long' }]);
        }
        return ctx.db.usageRecord.findMany({
          where: { applicationId: app.id, metric: args.metric, day: { gte: from, lte: to } },
          orderBy: [{ day: 'asc' }, { installationId: 'asc' }],
        });
      },
    }),
  }),
});

function parseDay(field: string, value: string): Date {
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00.000Z`) : new Date(Number.NaN);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
    throw validationFailed(`${field} must be a date written YYYY-MM-DD.`, [{ field, issue: 'not a YYYY-MM-DD date' }]);
  }
  return date;
}

export const schema = builder.toSubGraphSchema({ linkUrl: 'https://specs.apollo.dev/federation/v2.6' });
