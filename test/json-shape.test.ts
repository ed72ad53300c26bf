// The check a JSON body passes before JSON.parse (facade/http/body.ts): nesting and number of values
// counted on the raw bytes, strings (with escapes and multi-byte characters) skipped.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonShapeIssue } from '../facade/http/body.ts';
import { findUnsafeValue, MAX_JSON_DEPTH, MAX_REQUEST_VALUES } from '../platform/api/input-safety.ts';

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('jsonShapeIssue', () => {
  it('refuses nesting beyond the limit and counts brackets inside strings as text', () => {
    expect(jsonShapeIssue(bytes(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`))).toBe(null);
    expect(jsonShapeIssue(bytes(`${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`))).toMatch(/nested more than/);
    expect(jsonShapeIssue(bytes(JSON.stringify({ text: '[[[[{{{{'.repeat(100), quote: '\\"[[[[' })))).toBe(null);
    expect(jsonShapeIssue(bytes(JSON.stringify({ t: 'é€😀,'.repeat(MAX_REQUEST_VALUES) })))).toBe(null);
    expect(jsonShapeIssue(bytes(JSON.stringify(Array(MAX_REQUEST_VALUES + 1).fill(0))))).toMatch(/more than/);
  });

  it('never refuses a value the parsed-value check accepts', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 40 }), (value) => {
        const text = JSON.stringify(value);
        if (jsonShapeIssue(bytes(text)) !== null) expect(findUnsafeValue(JSON.parse(text), 'body', MAX_REQUEST_VALUES)).not.toBe(null);
      }),
      { numRuns: 500 },
    );
  });
});
