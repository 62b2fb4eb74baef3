-- The catalogue copy's transaction reads one snapshot: its version and the rows it copies agree.
SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY
