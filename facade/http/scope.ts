// The caller's scope of one HTTP request, as the gateway hands it to every subgraph.
import type { Context } from 'koa';
import { requestBudgetMs, type RequestScope } from '../../platform/domain/context.ts';

export function scopeOf(ctx: Context): RequestScope {
  return {
    requestId: ctx.state.requestId,
    authorization: ctx.get('authorization') || undefined,
    apiKey: ctx.get('x-api-key') || undefined,
    overlayToken: ctx.get('x-overlay-token') || undefined,
    installationId: ctx.get('svc-installation-id') || undefined,
    deadline: Date.now() + requestBudgetMs(),
  };
}
