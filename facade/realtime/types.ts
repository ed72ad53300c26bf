import type { Database } from '../../platform/db/database.ts';
import type { RequestScope } from '../../platform/domain/context.ts';
import type { Authority } from '../../platform/domain/authority.ts';
import type { FeedPosition } from '../../platform/domain/change-feed.ts';
import type { OperationRunner } from '../graphql/operations.ts';
import type { ChangeHub } from './hub.ts';
import type { Outlet } from './transport.ts';
import type { Hold } from '../graphql/document-memory.ts';

/** The credential a socket was opened with. */
export interface Credential {
  kind: 'token' | 'key';
  /** An overlay token (kind key): its one event's subscriptions only. */
  overlay?: boolean;
  /** sha256 of the secret, as stored. */
  hash: string;
  /** What a request made with this credential carries. */
  scope(): Pick<RequestScope, 'authorization' | 'apiKey' | 'overlayToken' | 'keyOrganisation' | 'authority'>;
  /**
   * Called by the gateway's periodic check while the credential's sockets are open and it is still
   * valid, with what the check found: a token's authority as it is now (an API key's is fixed).
   */
  checked(found?: Authority): void;
  /** The rate-limit quota its subscriptions spend: the application's (and user's), or the key's. */
  quota: { policy: 'token' | 'apiKey'; key: string };
}

export interface SocketState {
  credential: Credential;
  close(code: number, reason: string): void;
}

export interface RealtimeLimits {
  /** Subscriptions one socket may hold. */
  maxSubscriptionsPerSocket: number;
  /** Sockets one key or token may hold open on one instance. */
  maxSocketsPerCredential: number;
  /** Subscribe messages of one key or token that may wait to start on one instance, its sockets together. */
  maxPendingSubscribes: number;
  /** Distinct subscriptions (text, variables) one key or token may run on one instance. */
  maxDistinctPerCredential: number;
  /** Sockets of one client address that may be open without having sent connection_init. */
  maxAwaitingInitPerAddress: number;
  /** Changes a subscription may have waiting before it is closed as too slow. */
  maxQueued: number;
  /** The same in bytes (estimated, hub.ts changeBytes). */
  maxQueuedBytes: number;
  slowConsumerCode: number;
}

/** The context of one subscription. */
export interface SubscriptionContext {
  socket: SocketState;
  hub: ChangeHub;
  db: Database;
  runner: OperationRunner;
  limits: RealtimeLimits;
  after: FeedPosition | null;
  /** The subscription's text, variables and credential: equal signatures get equal messages. */
  signature: string;
  /** The subscription's id on its socket, and where its messages go. */
  subscriptionId: string;
  outlet: Outlet;
  /** What it holds of the gateway's memory budget (server.ts); released when it ends. */
  memory: Hold;
}
