// Application.usage: the metered usage an application reads about itself.
import { builder } from '../builder.ts';
import { usageOf, type UsageDay, type UsageReport } from '../metering/usage.ts';
import { UsageMetricEnum } from './enums.ts';
import { viewFields } from '../../../platform/graphql/zod-graphql.ts';
import { usageDayView, usageReportView } from '../views.ts';

const fieldsOf = viewFields(builder);

const UsageDayRef = builder.objectRef<UsageDay>('UsageDay').implement({ description: usageDayView.description, fields: (t) => fieldsOf(t, usageDayView) });

const UsageReportRef = builder.objectRef<UsageReport>('UsageReport').implement({
  fields: (t) => fieldsOf(t, usageReportView, { days: [UsageDayRef] }),
});

// Application is owned by the developer subgraph; this one adds what it meters.
builder.externalRef('Application', builder.selection<{ id: string }>('id')).implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    usage: t.field({
      type: UsageReportRef,
      description: 'Metered usage per UTC day and installation, oldest first. For the application itself and users who manage its owner (another user: forbidden; another application: not_found).',
      args: {
        metric: t.arg({ type: UsageMetricEnum, required: true }),
        from: t.arg.string({ description: 'First day, YYYY-MM-DD (UTC); the first day of the current UTC month by default.' }),
        to: t.arg.string({ description: 'Last day, YYYY-MM-DD (UTC); the last day of the current UTC month by default; at most 366 days from from.' }),
      },
      resolve: (app, args, ctx) => usageOf(ctx, app.id, args.metric, args.from, args.to),
    }),
  }),
});
