// If-Match handling: the current revision as a strong ETag, "<revision>".
import { ApiError } from './errors.ts';

export const etagOf = (revision: number) => `"${revision}"`;

/**
 * The revision an If-Match header asks for. Missing → 428; anything but exactly one quoted strong
 * ETag of a revision ("3") → 412: weak, unquoted, *, lists and garbage can never match.
 */
const WHY: Record<string, string> = {
  'weak ETag': 'a weak ETag never matches',
  wildcard: '* is not accepted, name the revision the change was made against',
  'not quoted': 'the quotes are part of an ETag',
  'not a strong ETag of a revision': 'this is not one',
};

export function expectedRevision(ifMatch: string | null | undefined): number {
  if (ifMatch == null || ifMatch.trim() === '') {
    throw new ApiError('precondition_required', 'This operation needs If-Match with the current revision as a strong ETag, for example If-Match: "3".', [
      { field: 'if-match', issue: 'required' },
    ]);
  }
  const match = /^\s*"(\d{1,9})"\s*$/.exec(ifMatch);
  if (!match) {
    const issue = /^\s*W\//.test(ifMatch) ? 'weak ETag' : ifMatch.trim() === '*' ? 'wildcard' : /^\s*\d+\s*$/.test(ifMatch) ? 'not quoted' : 'not a strong ETag of a revision';
    throw new ApiError('precondition_failed', `If-Match must be the current revision as one strong ETag in double quotes, for example If-Match: "3": ${WHY[issue]}.`, [
      { field: 'if-match', issue },
    ]);
  }
  return Number(match[1]);
}

export function revisionMismatch(current: number): ApiError {
  return new ApiError('precondition_failed', `If-Match does not match the current revision ${etagOf(current)}.`, [
    { field: 'if-match', issue: `current revision is ${current}` },
  ]);
}
