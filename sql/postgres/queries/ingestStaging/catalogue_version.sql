-- The catalogue's mapping version (039_catalogue_version.sql): moves with every change mapping reads.
SELECT version FROM catalogue_version
