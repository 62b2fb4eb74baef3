-- A bulk export file in a text format (JSONEachRow, CSVWithNames) from the data set's Parquet,
-- written by chDB itself (it reads Parquet faster than anything). Paths and format are parameters.
INSERT INTO FUNCTION file({target:String}, {target_format:String})
SELECT * FROM file({source:String}, 'Parquet')
SETTINGS engine_file_truncate_on_insert = 1
