// If-Match handling: the current revision as a strong ETag, "<revision>".
import { ApiError } from './errors.ts';

export const etagOf = (revision: number) => `"${revision}"`;

/**
 * The revision an If-Match header asks for. Missing → 428; weak, a list or anything but one strong
 * ETag of a revision → 412 (it can never match).
 */
export function expectedRevision(ifMatch: string | null | undefined): number {
  if (ifMatch == null || ifMatch.trim() === '') {
    throw new ApiError('precondition_required', 'This operation needs If-Match with the current revision as a strong ETag, for example If-Match: "3".', [
      { field: 'if-match', issue: 'required' },
    ]);
  }
  const match = /^\s*"(\d{1,9})"\s*$/.exec(ifMatch) ?? /^\s*(\d{1,9})\s*$/.exec(ifMatch);
  if (!match) {
    throw new ApiError('precondition_failed', 'If-Match must be one strong ETag of a revision, for example "3"; weak ETags never match.', [
      { field: 'if-match', issue: /^\s*W\//.test(ifMatch) ? 'weak ETag' : 'not a strong ETag of a revision' },
    ]);
  }
  return Number(match[1]);
}

export function revisionMismatch(current: number): ApiError {
  return new ApiError('precondition_failed', `If-Match does not match the current revision ${etagOf(current)}.`, [
    { field: 'if-match', issue: `current revision is ${current}` },
  ]);
}
