-- A page of the recognition index, for the API's in-memory copy (keyset order: card, cut).
SELECT card_id, cut, features FROM recognition_features WHERE (card_id, cut) > ($1, $2) ORDER BY card_id, cut LIMIT $3
