// The route table: every REST route of the platform.
import { authorityRoutes } from './authority.ts';
import { oauthRoutes } from './oauth.ts';
import { competitionReadRoutes } from './competition-reads.ts';
import { competitionWriteRoutes } from './competition-writes.ts';
import { esportsRoutes } from './esports.ts';
import { developerRoutes } from './developer.ts';
import { webhookRoutes } from './webhooks.ts';
import { ownerTransferRoutes } from './owner-transfers.ts';
import { chatRoutes } from './chat.ts';
import { v1Routes } from './v1.ts';
import { stageRoutes } from './stages.ts';
import { apiKeyRoutes } from './api-keys.ts';
import { overlayTokenRoutes } from './overlay-tokens.ts';
import type { RouteRow } from './table.ts';

export const routeTable: RouteRow[] = [...oauthRoutes, ...authorityRoutes, ...competitionWriteRoutes, ...competitionReadRoutes, ...stageRoutes, ...chatRoutes, ...esportsRoutes, ...developerRoutes, ...webhookRoutes, ...ownerTransferRoutes, ...apiKeyRoutes, ...overlayTokenRoutes, ...v1Routes];
