// Field-by-field validation with zod, answering validation_failed with one detail per field. The
// same schemas validate REST bodies in the facade and GraphQL inputs in the subgraphs.
import { z } from 'zod';
import { ApiError, type ErrorDetail } from './errors.ts';
import { findUnsafeValue, MAX_REQUEST_VALUES, MAX_YEAR, MIN_YEAR, timestampIssue } from './input-safety.ts';

const NOUN: Record<string, string> = { query: 'query parameter', header: 'header', path: 'path parameter' };

// zod says "Invalid input: expected string, received undefined" for a value that is not there.
const isMissing = (issue: z.core.$ZodIssue) => issue.code === 'invalid_type' && / received undefined$/.test(issue.message);

/** Details an error names at most: a body of 70,000 unknown keys is not answered with 70,000. */
export const MAX_ERROR_DETAILS = 20;

export function zodDetails(issues: z.core.$ZodIssue[], location = 'body'): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  // Answers whether there is room for more: the details stop at MAX_ERROR_DETAILS as they are made.
  const add = (detail: ErrorDetail) => details.push(detail) < MAX_ERROR_DETAILS;
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) if (!add({ field: [...issue.path, key].join('.'), issue: `unknown ${NOUN[location] ?? `${location} field`}` })) return details;
    } else if (!add({ field: issue.path.length ? issue.path.join('.') : location, issue: isMissing(issue) ? 'required' : issue.message })) {
      return details;
    }
  }
  return details;
}

/** One sentence for a person: "The request headers are not valid: idempotency-key is missing." */
export function detailsSentence(location: string, details: ErrorDetail[]): string {
  const where = { header: 'request headers are', path: 'request path is', query: 'request query is' }[location] ?? `${location} is`;
  const parts = details.map((d) => (d.issue === 'required' ? `${d.field} is missing` : `${d.field}: ${d.issue}`));
  return `The ${where} not valid: ${parts.join('; ')}.`;
}

/** Validates a value: first that every string in it can be stored, then against the schema. */
export function validate<T>(schema: z.ZodType<T>, value: unknown, location = 'body'): T {
  const unsafe = findUnsafeValue(value, '', MAX_REQUEST_VALUES);
  if (unsafe) {
    const detail = { field: unsafe.field || location, issue: unsafe.issue };
    throw new ApiError('validation_failed', `The ${location} is not valid: ${detail.field}: ${detail.issue}.`, [detail]);
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = zodDetails(result.error.issues, location);
  throw new ApiError('validation_failed', detailsSentence(location, details), details);
}

/** An ISO 8601 timestamp with a zone, between the years 1970 and 9999. */
export const isoTimestamp = z.iso
  .datetime({ offset: true })
  .refine((value) => timestampIssue(new Date(value)) === null, `must lie between the years ${MIN_YEAR} and ${MAX_YEAR}`);
