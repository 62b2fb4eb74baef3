-- Drops a stage's rows from one staging table (its own partition): the run is over.
ALTER TABLE holo.{table:Identifier} DROP PARTITION {stage:String}
