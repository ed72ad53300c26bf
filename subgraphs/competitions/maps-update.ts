// Maps reference data is the platform operator's: a file of maps is validated, upserted by id in one
// transaction (an unchanged map is left alone; maps are never deleted, results name them) and, when
// anything changed, recorded as one maps.updated change that the gateway and webhooks follow.
import { z } from 'zod';
import type { Db } from '../shared/db/database.ts';
import { newId } from '../shared/crypto.ts';
import { validate } from '../shared/validation.ts';
import { NOTIFY_CHANGES } from '../shared/change-feed.ts';
import type { ChangeType } from '../shared/change-catalogue.ts';

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

export async function updateMaps(prisma: Db, data: unknown, source: string): Promise<MapsUpdate> {
  const input = validate(mapsInput, data, 'maps');
  return prisma.$transaction(async (tx) => {
    const existing = new Map((await tx.map.findMany({ where: { id: { in: input.maps.map((m) => m.id) } } })).map((m) => [m.id, m]));
    const result: MapsUpdate = { created: [], updated: [], unchanged: 0, changeId: null };
    for (const map of input.maps) {
      const row = { name: map.name, imageUrl: map.imageUrl ?? null };
      const current = existing.get(map.id);
      if (!current) {
        await tx.map.create({ data: { id: map.id, ...row } });
        result.created.push(map.id);
      } else if (current.name !== row.name || current.imageUrl !== row.imageUrl) {
        await tx.map.update({ where: { id: map.id }, data: row });
        result.updated.push(map.id);
      } else {
        result.unchanged++;
      }
    }
    if (result.created.length || result.updated.length) {
      result.changeId = newId('chg');
      await tx.changeLog.create({
        data: { id: result.changeId, type: 'maps.updated' satisfies ChangeType, resourceType: 'maps', resourceId: 'maps', payload: { source, created: result.created, updated: result.updated } },
      });
      await tx.$executeRawUnsafe(NOTIFY_CHANGES.text);
    }
    return result;
  });
}
