// What a subgraph tells the world about an error: our own errors as they are, anything else masked
// as `internal` (and logged), so that no database or stack detail leaks.
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { ApiError } from '../api/errors.ts';
import { isDataException } from '../api/input-safety.ts';
import { databaseUnavailable, isDatabaseUnavailable, reportUnavailable } from '../db/unavailable.ts';

export function formatSubgraphError(error: GraphQLError, log: (error: unknown) => void): GraphQLFormattedError {
  const original = error instanceof ApiError ? error : error.originalError;
  if (original instanceof ApiError) {
    return { message: original.message, path: error.path, extensions: original.extensions };
  }
  if (!original && error.path?.length) {
    // Raised by the executor itself while it ran (graphql-jit's non-null and serialisation errors carry
    // no original error): a fault of ours, as graphql-js reports it.
    log(error);
    return { message: 'Internal error.', path: error.path, extensions: { code: 'internal' } };
  }
  if (!original) {
    // Request errors raised by graphql-js or the server itself (parsing, validation, coercion).
    return { message: error.message, path: error.path, extensions: { code: error.extensions?.code ?? 'validation_failed' } };
  }
  if (isDatabaseUnavailable(original)) {
    // Not our fault and not the client's: 503 with Retry-After on every surface, logged once in a while.
    reportUnavailable(log, original);
    const unavailable = databaseUnavailable();
    return { message: unavailable.message, path: error.path, extensions: unavailable.extensions };
  }
  log(original);
  if (isDataException(original)) {
    // A value the input checks let through and the database refused: the client's value, not a fault.
    return {
      message: 'A value in the request cannot be stored (out of range or not valid text).',
      path: error.path,
      extensions: { code: 'validation_failed', details: [{ issue: 'value_not_storable' }] },
    };
  }
  return { message: 'Internal error.', path: error.path, extensions: { code: 'internal' } };
}
