// What a request may hold is checked in memory bounded by its depth, not its width: a 1 MiB body of
// one 500,000-element array once held ~100 bytes of bookkeeping per element and, twice over, aborted a
// 128 MiB heap without any credential. Past MAX_REQUEST_VALUES it is refused before any schema runs.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { findUnsafeValue, invalidUtf8InForm, invalidUtf8InJson, MAX_JSON_DEPTH, MAX_REQUEST_VALUES, percentDecoded } from '../platform/api/input-safety.ts';
import { validate, MAX_ERROR_DETAILS } from '../platform/api/validation.ts';
import { z } from 'zod';
import { ApiError } from '../platform/api/errors.ts';

describe('findUnsafeValue', () => {
  it('names the first string that cannot be stored, a key that cannot, and a value nested too deeply', () => {
    expect(findUnsafeValue({ a: [1, { b: 'x\u0000' }] }, '')).toEqual({ field: 'a.1.b', issue: 'must not contain a NUL character (U+0000)' });
    expect(findUnsafeValue({ a: { ['k\u0000']: 1 } }, '')).toMatchObject({ field: 'a', issue: expect.stringMatching(/^a key /) });
    // A key __proto__ (an own property after JSON.parse) would be dropped silently by a record schema.
    expect(findUnsafeValue(JSON.parse('{"settings":{"__proto__":{"legs":9}}}'), '')).toEqual({ field: 'settings.__proto__', issue: 'not an accepted key' });
    let deep: unknown = 1;
    for (let i = 0; i <= MAX_JSON_DEPTH; i++) deep = [deep];
    expect(findUnsafeValue(deep, '')).toMatchObject({ issue: `nested more than ${MAX_JSON_DEPTH} levels deep` });
    expect(findUnsafeValue({ a: ['fine', 2, null, { b: true }] }, '')).toBeNull();
  });

  it('walks a 500,000-element array holding almost no memory of its own, and refuses it past the request bound', () => {
    // In a process whose old space is 24 MiB: the array itself takes about 4 MB; a walk that kept a
    // bookkeeping object and path per element (about 44 MB for this one) runs out of heap there.
    const script = `
      import { findUnsafeValue } from ${JSON.stringify(new URL('../platform/api/input-safety.ts', import.meta.url).pathname)};
      const found = findUnsafeValue({ foo: [...Array(500000).fill(0), 'x\\u0000'] }, '');
      process.stdout.write(JSON.stringify(found));`;
    const walked = spawnSync(process.execPath, ['--import', 'tsx', '--max-old-space-size=24', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    expect(walked.status, walked.stderr.slice(-500)).toBe(0);
    expect(JSON.parse(walked.stdout)).toMatchObject({ field: 'foo.500000' });
    const wide = { foo: [...Array(500_000).fill(0), 'x\u0000'] };
    expect(findUnsafeValue(wide, 'body', MAX_REQUEST_VALUES)).toEqual({ field: 'body', issue: `holds more than ${MAX_REQUEST_VALUES} values` });
    expect(findUnsafeValue(Array(MAX_REQUEST_VALUES - 1).fill(0), '', MAX_REQUEST_VALUES)).toBeNull();
  });
});

describe('text that is not UTF-8', () => {
  const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((part) => Buffer.from(part as string)));

  it('is found in a JSON text on its bytes: the path of its string, its object for a key, never a U+FFFD sent as such', () => {
    expect(invalidUtf8InJson(bytes('{"a":[1,{"b":"x', [0xc3, 0x28], '"}]}'))).toEqual({ field: 'a.1.b', key: false });
    // Keys and indexes before it are counted past escaped quotes, commas and brackets inside strings.
    expect(invalidUtf8InJson(bytes('{"q\\"[,":"],{","n":{"k":"v","k', [0xff], '":2}}'))).toEqual({ field: 'n', key: true });
    expect(invalidUtf8InJson(bytes('{"t\\u00e9":["\\ufffd", "\ufffd", "', [0xed, 0xa0, 0x80], '"]}'))).toEqual({ field: 't\u00e9.2', key: false });
    expect(invalidUtf8InJson(bytes('"', [0x80], '"'))).toEqual({ field: '', key: false });
    expect(invalidUtf8InJson(bytes('{"a":"\ufffd \\ufffd","b":["\u00e9"]}'))).toBeNull();
  });

  it('is found in form-encoded text once percent-decoded: the parameter, or none when its name is not UTF-8', () => {
    expect(invalidUtf8InForm(bytes('a=1&b=%C3%A9&c=%C3%28'))).toBe('c');
    expect(invalidUtf8InForm(bytes('a=1&b=', [0xff]))).toBe('b');
    expect(invalidUtf8InForm(bytes('a+b=%FF'))).toBe('a b');
    expect(invalidUtf8InForm(bytes('%FF=1'))).toBe('');
    // A % without two hex digits stays itself, as URLSearchParams reads it.
    expect(invalidUtf8InForm(bytes('a=100%&b=%E2%82%AC&c=%zz&d=%EF%BF%BD'))).toBeNull();
    expect(percentDecoded(bytes('a+%41%4g%'))).toEqual(Buffer.from('a A%4g%'));
  });
});

describe('validate', () => {
  it('refuses a body of more values than a request may hold before the schema runs, and names at most 20 details', () => {
    const schema = z.strictObject({ name: z.string() });
    const started = performance.now();
    expect(() => validate(schema, { name: 'a', foo: Array(500_000).fill(0) })).toThrow(expect.objectContaining({ details: [{ field: 'body', issue: `holds more than ${MAX_REQUEST_VALUES} values` }] }));
    // A key at the top names where it came from, not always the body.
    expect(() => validate(z.object({}), { 'a\u0000': '1' }, 'query')).toThrow(expect.objectContaining({ details: [{ field: 'query', issue: expect.stringMatching(/^a key /) }] }));
    expect(performance.now() - started).toBeLessThan(1_000);
    const manyKeys = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, 1]));
    try {
      validate(schema, { name: 'a', ...manyKeys });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).details).toHaveLength(MAX_ERROR_DETAILS);
      expect((error as ApiError).message.length).toBeLessThan(2_000);
    }
  });
});
