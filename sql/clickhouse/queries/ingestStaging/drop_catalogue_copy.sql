-- Drops an old catalogue version from one copy table (its own partition).
ALTER TABLE holo.{table:Identifier} DROP PARTITION {version:UInt64}
