-- The newest day of a source's reference rates; 1970-01-01 when it has none yet.
SELECT toString(max(day)) AS day FROM holo.fx_rates WHERE source = {source:String}
