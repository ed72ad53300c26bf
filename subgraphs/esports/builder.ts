import type { SchemaTypes } from '@pothos/core';
import { createBuilder } from '../shared/builder.ts';

export const builder = createBuilder();
export type BuilderTypesOf = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : SchemaTypes;
