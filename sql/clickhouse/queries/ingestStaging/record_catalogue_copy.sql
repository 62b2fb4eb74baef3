-- Marks a catalogue version's copy complete: both tables hold it whole.
INSERT INTO holo.catalogue_copies (version) VALUES ({version:UInt64})
