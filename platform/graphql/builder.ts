// The one builder factory for every subgraph: same plugins, scalars and context.
import SchemaBuilder from '@pothos/core';
import DirectivesPlugin from '@pothos/plugin-directives';
import FederationPlugin from '@pothos/plugin-federation';
import PrismaPlugin from '@pothos/plugin-prisma';
import { GraphQLScalarType, Kind } from 'graphql';
import type PrismaTypes from '../db/generated/pothos-types.ts';
import { getDatamodel } from '../db/generated/pothos-types.ts';
import type { SubgraphContext } from '../domain/context.ts';
import { ApiError } from '../api/errors.ts';
import { timestampIssue } from '../api/input-safety.ts';

export interface BuilderTypes {
  Context: SubgraphContext;
  PrismaTypes: PrismaTypes;
  Scalars: {
    DateTime: { Input: Date; Output: Date | string };
    JSON: { Input: unknown; Output: unknown };
  };
  DefaultFieldNullability: false;
}

const DateTime = new GraphQLScalarType<Date, string>({
  name: 'DateTime',
  description: 'An ISO 8601 timestamp in UTC, for example 2026-11-21T09:55:00.000Z.',
  serialize: (value) => (value instanceof Date ? value.toISOString() : new Date(value as string).toISOString()),
  parseValue: (value) => parseDate(value),
  parseLiteral: (ast) => (ast.kind === Kind.STRING ? parseDate(ast.value) : invalidDate()),
});

function parseDate(value: unknown): Date {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2}))?$/.test(value)) return invalidDate();
  const date = new Date(value);
  const issue = timestampIssue(date);
  return issue ? invalidDate(`: it ${issue}`) : date;
}

function invalidDate(why = ''): never {
  throw new ApiError('validation_failed', `Expected an ISO 8601 timestamp${why}.`);
}

const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value.',
  serialize: (value) => value,
  parseValue: (value) => value,
});

export function createBuilder() {
  const builder = new SchemaBuilder<BuilderTypes>({
    plugins: [PrismaPlugin, DirectivesPlugin, FederationPlugin],
    defaultFieldNullability: false,
    prisma: {
      client: (ctx) => ctx.db,
      dmmf: getDatamodel(),
      exposeDescriptions: false,
      onUnusedQuery: null,
    },
  });
  builder.addScalarType('DateTime', DateTime);
  builder.addScalarType('JSON', JSONScalar);
  builder.queryType({});
  return builder;
}

export type Builder = ReturnType<typeof createBuilder>;
/** The schema types of every subgraph's builder, for helpers that take a builder's refs. */
export type SubgraphSchemaTypes = Builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/**
 * The `replayed` field of an idempotent write's answer (the Idempotent-Replayed header of REST):
 * true when the answer is the one stored for an earlier request with the same Idempotency-Key.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const replayedField = (t: any) =>
  t.boolean({
    description: 'True when this is the stored result of an earlier request with the same Idempotency-Key.',
    resolve: (parent: { replayed?: boolean }) => parent.replayed ?? false,
  });
