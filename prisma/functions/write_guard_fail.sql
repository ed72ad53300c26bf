-- Fails the statement that reaches it: the failing arm of a write guard (platform/db/guards.ts).
-- SQLSTATE WG001 is the platform's own (class W is left to applications), the check's name travels as
-- the error's constraint and the value the check saw as its detail, so no message is parsed. VOLATILE
-- keeps the planner from running it while it folds constants.
CREATE OR REPLACE FUNCTION write_guard_fail(check_name text, seen text) RETURNS integer
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  RAISE EXCEPTION 'write guard % failed', check_name
    USING ERRCODE = 'WG001', CONSTRAINT = check_name, DETAIL = coalesce(seen, '');
END
$$;
