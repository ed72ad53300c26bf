// Field-by-field validation with zod, answering validation_failed with one detail per field. The
// same schemas validate REST bodies in the facade and GraphQL inputs in the subgraphs.
import type { z } from 'zod';
import { ApiError, type ErrorDetail } from './errors.ts';

export function zodDetails(issues: z.core.$ZodIssue[], location = 'body'): ErrorDetail[] {
  return issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ field: [...issue.path, key].join('.'), issue: `unknown ${location} field` }))
      : [{ field: issue.path.length ? issue.path.join('.') : location, issue: issue.message }],
  );
}

export function validate<T>(schema: z.ZodType<T>, value: unknown, location = 'body'): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = zodDetails(result.error.issues, location);
  throw new ApiError('validation_failed', `The ${location} is not valid: ${details.map((d) => `${d.field}: ${d.issue}`).join('; ')}.`, details);
}
