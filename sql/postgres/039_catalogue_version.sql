-- A version of what price mapping reads from the catalogue (games, cards, printings, variants,
-- cross_refs), bumped by every statement that changes it: ingestion keeps a ClickHouse copy of
-- those tables per version (ingest/load/catalogueCopy.ts) and copies again only when it moved.
-- Transactional (a row, not a sequence): read in the same snapshot as the copy, the version is
-- exactly the one the copied rows belong to.
CREATE TABLE catalogue_version (
  one     boolean PRIMARY KEY DEFAULT true CHECK (one),
  version bigint NOT NULL
);
INSERT INTO catalogue_version (version) VALUES (1);

-- Inserts and deletes: bumped when the statement touched a row (an ON CONFLICT DO NOTHING of
-- known rows changes nothing).
CREATE FUNCTION bump_catalogue_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM changed_rows) THEN
    UPDATE catalogue_version SET version = version + 1;
  END IF;
  RETURN NULL;
END $$;

-- Updates: bumped only when a column mapping reads changed (a card's name or a variant's image
-- does not move mapping; the daily catalogue upsert rewrites rows with the same values).
CREATE FUNCTION bump_catalogue_version_on_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  moved boolean;
BEGIN
  EXECUTE format(
    'SELECT EXISTS (SELECT 1 FROM old_rows o JOIN new_rows n ON n.%1$I = o.%1$I WHERE (%2$s) IS DISTINCT FROM (%3$s))',
    TG_ARGV[0],
    (SELECT string_agg(format('o.%I', c), ', ') FROM unnest(TG_ARGV[1:]) c),
    (SELECT string_agg(format('n.%I', c), ', ') FROM unnest(TG_ARGV[1:]) c)
  ) INTO moved;
  IF moved THEN
    UPDATE catalogue_version SET version = version + 1;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION bump_catalogue_version_always() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE catalogue_version SET version = version + 1;
  RETURN NULL;
END $$;

CREATE TRIGGER games_catalogue_version_update AFTER UPDATE ON games
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version_on_update('id', 'slug');
CREATE TRIGGER cards_catalogue_version_update AFTER UPDATE ON cards
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version_on_update('id', 'game_id', 'external_key');
CREATE TRIGGER printings_catalogue_version_update AFTER UPDATE ON printings
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version_on_update('id', 'card_id', 'print_run');
CREATE TRIGGER variants_catalogue_version_update AFTER UPDATE ON variants
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version_on_update('id', 'printing_id', 'finish');
CREATE TRIGGER cross_refs_catalogue_version_update AFTER UPDATE ON cross_refs
  FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version_always();
CREATE TRIGGER games_catalogue_version_insert AFTER INSERT ON games
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
CREATE TRIGGER games_catalogue_version_delete AFTER DELETE ON games
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
CREATE TRIGGER games_catalogue_version_truncate AFTER TRUNCATE ON games
  FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version_always();
CREATE TRIGGER cards_catalogue_version_insert AFTER INSERT ON cards
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
CREATE TRIGGER cards_catalogue_version_delete AFTER DELETE ON cards
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
CREATE TRIGGER cards_catalogue_version_truncate AFTER TRUNCATE ON cards
  FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version_always();
CREATE TRIGGER printings_catalogue_version_insert AFTER INSERT ON printings
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
CREATE TRIGGER printings_catalogue_version_delete AFTER DELETE ON printings
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
CREATE TRIGGER printings_catalogue_version_truncate AFTER TRUNCATE ON printings
  FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version_always();
CREATE TRIGGER variants_catalogue_version_insert AFTER INSERT ON variants
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
CREATE TRIGGER variants_catalogue_version_delete AFTER DELETE ON variants
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
CREATE TRIGGER variants_catalogue_version_truncate AFTER TRUNCATE ON variants
  FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version_always();
CREATE TRIGGER cross_refs_catalogue_version_insert AFTER INSERT ON cross_refs
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
CREATE TRIGGER cross_refs_catalogue_version_delete AFTER DELETE ON cross_refs
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version();
CREATE TRIGGER cross_refs_catalogue_version_truncate AFTER TRUNCATE ON cross_refs
  FOR EACH STATEMENT EXECUTE FUNCTION bump_catalogue_version_always();
