-- The rows of a bulk export's Parquet file.
SELECT count() AS n FROM file({source:String}, 'Parquet')
