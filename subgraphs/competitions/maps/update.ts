// Maps reference data is the platform operator's: a file of maps is validated, upserted by id in one
// statement (an unchanged map is left alone; maps are never deleted, results name them) and, when
// anything changed, recorded in the same statement as one maps.updated change that the gateway and
// webhooks follow.
import { z } from 'zod';
import type { WriteAccess } from '../../../platform/db/database.ts';
import { upsertChangedSql } from '../../../platform/db/upsert.ts';
import { NOW } from '../../../platform/db/sql-fragments.ts';
import { newId } from '../../../platform/api/crypto.ts';
import { validate } from '../../../platform/api/validation.ts';
import { CHANGE_LOG_INSERT, NOTIFY_CHANGES } from '../../../platform/domain/change-log.ts';
import type { ChangeType } from '../../../platform/domain/change-catalogue.ts';

export const mapsInput = z
  .object({
    maps: z
      .array(
        z
          .object({
            id: z.string().regex(/^map_[a-z0-9_]{1,60}$/, 'must be map_ and lower-case letters, digits or _'),
            name: z.string().trim().min(1).max(100),
            imageUrl: z.url({ protocol: /^https?$/ }).max(500).nullish(),
          })
          .strict(),
      )
      .min(1)
      .max(500)
      .refine((maps) => new Set(maps.map((m) => m.id)).size === maps.length, 'map ids must be unique'),
  })
  .strict();

export interface MapsUpdate {
  created: string[];
  updated: string[];
  unchanged: number;
  changeId: string | null;
}

// The change row exists only when a map was created or changed; its lists keep the file's order ($1).
const UPDATE_MAPS_SQL = `
  WITH upserted AS (${upsertChangedSql('Map', ['id'], '$1')}),
  listed AS (
    SELECT u.id, u.created, r.n FROM upserted u
    JOIN json_array_elements($1::json) WITH ORDINALITY AS r(map, n) ON r.map->>'id' = u.id),
  logged AS (
    ${CHANGE_LOG_INSERT}
    SELECT $2, '${'maps.updated' satisfies ChangeType}', NULL, NULL, 'maps', 'maps', NULL,
           jsonb_build_object('source', $3::text,
             'created', coalesce((SELECT jsonb_agg(id ORDER BY n) FROM listed WHERE created), '[]'::jsonb),
             'updated', coalesce((SELECT jsonb_agg(id ORDER BY n) FROM listed WHERE NOT created), '[]'::jsonb)), ${NOW}
    WHERE EXISTS (SELECT 1 FROM upserted))
  SELECT id, created FROM listed ORDER BY n`;

export async function updateMaps(database: WriteAccess, data: unknown, source: string): Promise<MapsUpdate> {
  const input = validate(mapsInput, data, 'maps');
  const changeId = newId('chg');
  const rows = input.maps.map((map) => ({ id: map.id, name: map.name, imageUrl: map.imageUrl ?? null }));
  const [moved] = await database.transaction([{ text: UPDATE_MAPS_SQL, values: [JSON.stringify(rows), changeId, source] }, NOTIFY_CHANGES]);
  const ids = (created: boolean) => moved.filter((row) => row.created === created).map((row) => row.id as string);
  return { created: ids(true), updated: ids(false), unchanged: rows.length - moved.length, changeId: moved.length ? changeId : null };
}
