// Every model that driver statements read, on the wire (wire-rows.ts): its DateTime fields named once,
// checked against the model's type, and the alias its statements give its table. Statements take
// their columns from here (`WIRE.match.columns`, `WIRE.installation.pick('id', …)`).
import type { AccessToken, Application, AuthorizationCode, ChatMessage, Event, Installation, Match, OAuthGrant, RefreshToken, Standing } from './generated/client.ts';
import { wireModel } from './wire-rows.ts';

export const WIRE = {
  accessToken: wireModel<AccessToken>()('AccessToken', 't', ['expiresAt', 'revokedAt', 'createdAt']),
  application: wireModel<Application>()('Application', 'a', ['createdAt']),
  authorizationCode: wireModel<AuthorizationCode>()('AuthorizationCode', 'c', ['expiresAt', 'consumedAt', 'createdAt']),
  chatMessage: wireModel<ChatMessage>()('ChatMessage', 'm', ['createdAt', 'updatedAt']),
  event: wireModel<Event>()('Event', 'e', ['startsAt', 'endsAt', 'completedAt', 'createdAt', 'updatedAt']),
  installation: wireModel<Installation>()('Installation', 'i', ['createdAt', 'revokedAt']),
  match: wireModel<Match>()('Match', 'm', ['scheduledAt', 'startedAt', 'completedAt', 'createdAt', 'updatedAt']),
  oauthGrant: wireModel<OAuthGrant>()('OAuthGrant', 'g', ['createdAt', 'revokedAt']),
  refreshToken: wireModel<RefreshToken>()('RefreshToken', 'r', ['expiresAt', 'consumedAt', 'revokedAt', 'createdAt']),
  standing: wireModel<Standing>()('Standing', 's', []),
};
