// The examples the OpenAPI document publishes are answers and requests the route would accept: each
// example answer validates against the route's response schema (every item of a list), and each
// example request body against its body schema.
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { routeTable } from '../facade/routes/index.ts';

const problems = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('published examples', () => {
  const withExamples = routeTable.filter((row) => row.example);

  it('there are examples to check', () => {
    expect(withExamples.length).toBeGreaterThan(40);
  });

  it("every example answer validates against the route's response schema", () => {
    const failures: string[] = [];
    let checked = 0;
    for (const row of withExamples) {
      const response = row.example!.response as { data?: unknown } | undefined;
      if (response === undefined) continue;
      const body = row.format === 'raw' ? response : response.data;
      const items = row.format === 'list' ? (body as unknown[]) : [body];
      if (!Array.isArray(items)) {
        failures.push(`${row.operationId}: a list example whose data is not an array`);
        continue;
      }
      for (const item of items) {
        checked += 1;
        for (const problem of problems(row.success.schema as z.ZodType, item)) failures.push(`${row.operationId} ${problem}`);
      }
    }
    expect(checked).toBeGreaterThan(40);
    expect(failures).toEqual([]);
  });

  it("every example request body validates against the route's body schema", () => {
    const failures: string[] = [];
    let checked = 0;
    for (const row of withExamples) {
      const request = row.example!.request;
      const body = row.input.body as z.ZodType | undefined;
      if (!body || !request || !request.trim().startsWith('{')) continue;
      checked += 1;
      for (const problem of problems(body, JSON.parse(request))) failures.push(`${row.operationId} ${problem}`);
    }
    expect(checked).toBeGreaterThan(10);
    expect(failures).toEqual([]);
  });
});
