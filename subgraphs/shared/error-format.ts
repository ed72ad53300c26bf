// What a subgraph tells the world about an error: our own errors as they are, anything else masked
// as `internal` (and logged), so that no database or stack detail leaks.
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { ApiError } from './errors.ts';

export function formatSubgraphError(error: GraphQLError, log: (error: unknown) => void): GraphQLFormattedError {
  const original = error.originalError;
  if (original instanceof ApiError) {
    return { message: original.message, path: error.path, extensions: original.extensions };
  }
  if (!original) {
    // Request errors raised by graphql-js or the server itself (parsing, validation, coercion).
    return { message: error.message, path: error.path, extensions: { code: error.extensions?.code ?? 'validation_failed' } };
  }
  log(original ?? error);
  return { message: 'Internal error.', path: error.path, extensions: { code: 'internal' } };
}
