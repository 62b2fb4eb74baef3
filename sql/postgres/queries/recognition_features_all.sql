-- The whole recognition index, for the API's in-memory copy.
SELECT card_id, cut, features FROM recognition_features ORDER BY card_id, cut
