// Per-request DataLoaders: every lookup by key in one tick becomes one query.
import DataLoader from 'dataloader';
import type { Db, SqlRunner } from '../db/database.ts';
import { WIRE } from '../db/wire-models.ts';
import type { RowOf } from '../db/wire-rows.ts';

// An active installation as authority checks read it, its columns from the datamodel (wire-rows.ts).
const INSTALLATION = WIRE.installation.pick('id', 'applicationId', 'targetType', 'targetId', 'status', 'createdAt');
export type InstallationRow = ReturnType<typeof INSTALLATION.modelOf>;

function byId<T extends { id: string }>(fetch: (ids: string[]) => Promise<T[]>) {
  return new DataLoader<string, T | null>(async (ids) => {
    const rows = await fetch([...ids]);
    const index = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => index.get(id) ?? null);
  });
}

function groupedBy<T>(fetch: (ids: string[]) => Promise<T[]>, keyOf: (row: T) => string) {
  return new DataLoader<string, T[]>(async (ids) => {
    const rows = await fetch([...ids]);
    const groups = new Map<string, T[]>();
    for (const row of rows) {
      const id = keyOf(row);
      const list = groups.get(id);
      if (list) list.push(row);
      else groups.set(id, [row]);
    }
    return ids.map((id) => groups.get(id) ?? []);
  });
}

export interface InstallationKey {
  applicationId: string;
  targetType: string;
  targetId: string;
}

const installationKey = (key: InstallationKey) => `${key.applicationId}|${key.targetType}|${key.targetId}`;

const INSTALLATIONS_SQL = `
  SELECT ${INSTALLATION.columns}
  FROM "Installation" i
  JOIN unnest($1::text[], $2::text[], $3::text[]) AS k("applicationId", "targetType", "targetId")
    ON i."applicationId" = k."applicationId" AND i."targetType" = k."targetType" AND i."targetId" = k."targetId"
  WHERE i.status = 'active'`;

export function createLoaders(db: Db, sql: SqlRunner) {
  const loaders = {
    /** The active installation of an application on one target, batched across targets. */
    activeInstallation: () =>
      new DataLoader<InstallationKey, InstallationRow | null, string>(
        async (keys) => {
          // On every authorised read: one prepared statement on the driver, whatever the batch size.
          const rows = await sql<RowOf<typeof INSTALLATION>>(INSTALLATIONS_SQL, [
            keys.map((key) => key.applicationId),
            keys.map((key) => key.targetType),
            keys.map((key) => key.targetId),
          ]);
          const index = new Map(rows.map((row) => [installationKey(row), INSTALLATION.modelOf(row)]));
          return keys.map((key) => index.get(installationKey(key)) ?? null);
        },
        { cacheKeyFn: installationKey },
      ),
    organisation: () => byId((ids) => db.organisation.findMany({ where: { id: { in: ids } } })),
    user: () => byId((ids) => db.user.findMany({ where: { id: { in: ids } } })),
    team: () => byId((ids) => db.team.findMany({ where: { id: { in: ids } } })),
    event: () => byId((ids) => db.event.findMany({ where: { id: { in: ids } } })),
    stage: () => byId((ids) => db.stage.findMany({ where: { id: { in: ids } } })),
    participant: () => byId((ids) => db.participant.findMany({ where: { id: { in: ids } } })),
    application: () => byId((ids) => db.application.findMany({ where: { id: { in: ids } } })),
    stagesByEvent: () =>
      groupedBy(
        (ids) => db.stage.findMany({ where: { eventId: { in: ids } }, orderBy: [{ position: 'asc' }, { id: 'asc' }] }),
        (row) => row.eventId,
      ),
    lineupByParticipant: () =>
      groupedBy(
        (ids) => db.lineupMember.findMany({ where: { participantId: { in: ids } }, orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }] }),
        (row) => row.participantId,
      ),
    staffByPlayday: () =>
      groupedBy(
        (ids) => db.playdayStaff.findMany({ where: { playdayId: { in: ids } }, orderBy: [{ role: 'asc' }, { userId: 'asc' }] }),
        (row) => row.playdayId,
      ),
    teamMembersByTeam: () =>
      groupedBy(
        (ids) => db.teamMember.findMany({ where: { teamId: { in: ids } }, orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }] }),
        (row) => row.teamId,
      ),
  };
  type Factories = typeof loaders;
  const made = new Map<keyof Factories, unknown>();
  // Loaders are made on first use: most requests touch one or two of them.
  return new Proxy({} as { [K in keyof Factories]: ReturnType<Factories[K]> }, {
    get(_target, name: keyof Factories) {
      let loader = made.get(name);
      if (!loader) {
        loader = loaders[name]();
        made.set(name, loader);
      }
      return loader;
    },
  });
}

export type Loaders = ReturnType<typeof createLoaders>;
