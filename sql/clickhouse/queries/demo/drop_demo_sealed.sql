-- Drops the staging table of the sealed demo history.
DROP TABLE IF EXISTS holo.demo_sealed
