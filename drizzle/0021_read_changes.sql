-- Change notifications for the read cache (src/database/change-feed.ts). Every statement that
-- changes what a cached read answers sends, on commit, the scopes it touched on the channel
-- st_read_changes, space-separated, at most 100 per notification:
--   u:<user id>                      the user's document (username, profile)
--   p:<user id>:<game>:<playtype>    the user's scores, PBs, ratings, stats and settings on a GPT
--   g:<game>:<playtype>              the GPT's leaderboard (any profile's stats or ratings)
--   c:<chart id>                     the chart's PBs (every player's) and its player count
--   r:<game>:<playtype>              chart popularity (a chart's player count) in the GPT
--   k:<game>                         the game's songs and charts
-- Triggers are per statement with transition tables, so an import of 1,000 scores sends a few
-- notifications, not 1,000. Updates that change nothing a reader sees (stored ranks, a chart's
-- dirty mark) send none.
CREATE FUNCTION read_changes_notify(scopes text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  i int := 1;
  n int := coalesce(array_length(scopes, 1), 0);
BEGIN
  WHILE i <= n LOOP
    PERFORM pg_notify('st_read_changes', array_to_string(scopes[i:i + 99], ' '));
    i := i + 100;
  END LOOP;
END $$;
--> statement-breakpoint
-- personal_bests. Writing stored ranks (scoring/personal-bests.writer.ts writeChartRanks) changes
-- no answer, as readers count a dirty chart's ranks live: that statement runs with the setting
-- st.read_changes = 'quiet' and sends nothing.
CREATE FUNCTION read_changes_pbs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('st.read_changes', true) = 'quiet' THEN
    RETURN NULL;
  END IF;
  PERFORM read_changes_notify(ARRAY(
    SELECT 'c:' || chart_id FROM changed UNION SELECT 'p:' || user_id || ':' || game || ':' || playtype FROM changed));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER read_changes_ins AFTER INSERT ON personal_bests REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION read_changes_pbs();
--> statement-breakpoint
CREATE TRIGGER read_changes_del AFTER DELETE ON personal_bests REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION read_changes_pbs();
--> statement-breakpoint
CREATE TRIGGER read_changes_upd AFTER UPDATE ON personal_bests REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION read_changes_pbs();
--> statement-breakpoint
-- Tables whose rows belong to one user on one GPT.
CREATE FUNCTION read_changes_ugpt() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM read_changes_notify(ARRAY(SELECT DISTINCT 'p:' || user_id || ':' || game || ':' || playtype FROM changed));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER read_changes_ins AFTER INSERT ON scores REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION read_changes_ugpt();
--> statement-breakpoint
CREATE TRIGGER read_changes_del AFTER DELETE ON scores REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION read_changes_ugpt();
--> statement-breakpoint
CREATE TRIGGER read_changes_upd AFTER UPDATE ON scores REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION read_changes_ugpt();
--> statement-breakpoint
CREATE TRIGGER read_changes_ins AFTER INSERT ON pb_ratings REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION read_changes_ugpt();
--> statement-breakpoint
CREATE TRIGGER read_changes_del AFTER DELETE ON pb_ratings REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION read_changes_ugpt();
--> statement-breakpoint
CREATE TRIGGER read_changes_upd AFTER UPDATE ON pb_ratings REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION read_changes_ugpt();
--> statement-breakpoint
CREATE TRIGGER read_changes_ins AFTER INSERT ON ugpt_settings REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION read_changes_ugpt();
--> statement-breakpoint
CREATE TRIGGER read_changes_del AFTER DELETE ON ugpt_settings REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION read_changes_ugpt();
--> statement-breakpoint
CREATE TRIGGER read_changes_upd AFTER UPDATE ON ugpt_settings REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION read_changes_ugpt();
--> statement-breakpoint
-- Profiles (stats, ratings): the user's GPT and the GPT's leaderboard.
CREATE FUNCTION read_changes_profile() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM read_changes_notify(ARRAY(
    SELECT 'p:' || user_id || ':' || game || ':' || playtype FROM changed UNION SELECT 'g:' || game || ':' || playtype FROM changed));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER read_changes_ins AFTER INSERT ON user_game_stats REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION read_changes_profile();
--> statement-breakpoint
CREATE TRIGGER read_changes_del AFTER DELETE ON user_game_stats REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION read_changes_profile();
--> statement-breakpoint
CREATE TRIGGER read_changes_upd AFTER UPDATE ON user_game_stats REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION read_changes_profile();
--> statement-breakpoint
CREATE TRIGGER read_changes_ins AFTER INSERT ON profile_ratings REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION read_changes_profile();
--> statement-breakpoint
CREATE TRIGGER read_changes_del AFTER DELETE ON profile_ratings REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION read_changes_profile();
--> statement-breakpoint
CREATE TRIGGER read_changes_upd AFTER UPDATE ON profile_ratings REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION read_changes_profile();
--> statement-breakpoint
-- A chart's player count: its chart (outOf) and the GPT's popularity order; the dirty mark is not seen.
CREATE FUNCTION read_changes_chart_players() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM read_changes_notify(ARRAY(
      SELECT 'c:' || n.chart_id FROM changed_new n JOIN changed_old o USING (chart_id) WHERE n.players IS DISTINCT FROM o.players
      UNION SELECT 'r:' || n.game || ':' || n.playtype FROM changed_new n JOIN changed_old o USING (chart_id) WHERE n.players IS DISTINCT FROM o.players));
  ELSE
    PERFORM read_changes_notify(ARRAY(SELECT 'c:' || chart_id FROM changed UNION SELECT 'r:' || game || ':' || playtype FROM changed));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER read_changes_ins AFTER INSERT ON chart_rankings REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION read_changes_chart_players();
--> statement-breakpoint
CREATE TRIGGER read_changes_del AFTER DELETE ON chart_rankings REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION read_changes_chart_players();
--> statement-breakpoint
CREATE TRIGGER read_changes_upd AFTER UPDATE ON chart_rankings REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION read_changes_chart_players();
--> statement-breakpoint
-- User documents: updates that change the row, and deletions (a new user changes no cached answer).
CREATE FUNCTION read_changes_users() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM read_changes_notify(ARRAY(
      SELECT 'u:' || n.id FROM changed_new n JOIN changed_old o USING (id) WHERE to_jsonb(n) IS DISTINCT FROM to_jsonb(o)));
  ELSE
    PERFORM read_changes_notify(ARRAY(SELECT 'u:' || id FROM changed));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER read_changes_del AFTER DELETE ON users REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION read_changes_users();
--> statement-breakpoint
CREATE TRIGGER read_changes_upd AFTER UPDATE ON users REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new FOR EACH STATEMENT EXECUTE FUNCTION read_changes_users();
--> statement-breakpoint
-- The catalog: a game's songs and charts.
CREATE FUNCTION read_changes_catalog() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM read_changes_notify(ARRAY(SELECT DISTINCT 'k:' || game FROM changed));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER read_changes_ins AFTER INSERT ON songs REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION read_changes_catalog();
--> statement-breakpoint
CREATE TRIGGER read_changes_del AFTER DELETE ON songs REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION read_changes_catalog();
--> statement-breakpoint
CREATE TRIGGER read_changes_upd AFTER UPDATE ON songs REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION read_changes_catalog();
--> statement-breakpoint
CREATE TRIGGER read_changes_ins AFTER INSERT ON charts REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION read_changes_catalog();
--> statement-breakpoint
CREATE TRIGGER read_changes_del AFTER DELETE ON charts REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION read_changes_catalog();
--> statement-breakpoint
CREATE TRIGGER read_changes_upd AFTER UPDATE ON charts REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION read_changes_catalog();
