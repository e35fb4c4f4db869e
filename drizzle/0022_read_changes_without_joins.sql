-- The UPDATE triggers of chart_rankings and users compared each row's old and new version by
-- joining the two transition tables. PL/pgSQL keeps a trigger query's plan for the session, and a
-- plan made while statements touched a few rows is a nested loop: an import that updated 8,000
-- charts' player counts then compared 8,000 × 8,000 rows, which took ~18 s on the embedded engine.
-- EXCEPT compares the two sets by hashing or sorting whatever their sizes: a row of the new
-- version that is not among the old versions is one whose compared columns changed (chart_id and
-- id are unique in each table). Same scopes as before.
CREATE OR REPLACE FUNCTION read_changes_chart_players() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM read_changes_notify(ARRAY(
      WITH moved AS (
        SELECT chart_id, game, playtype, players FROM changed_new
        EXCEPT SELECT chart_id, game, playtype, players FROM changed_old)
      SELECT 'c:' || chart_id FROM moved UNION SELECT 'r:' || game || ':' || playtype FROM moved));
  ELSE
    PERFORM read_changes_notify(ARRAY(SELECT 'c:' || chart_id FROM changed UNION SELECT 'r:' || game || ':' || playtype FROM changed));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION read_changes_users() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM read_changes_notify(ARRAY(
      SELECT DISTINCT 'u:' || id FROM (SELECT n.id, to_jsonb(n) AS doc FROM changed_new n EXCEPT SELECT o.id, to_jsonb(o) FROM changed_old o) moved));
  ELSE
    PERFORM read_changes_notify(ARRAY(SELECT 'u:' || id FROM changed));
  END IF;
  RETURN NULL;
END $$;
