-- Whether $1 blocks $2.
SELECT blocked_id AS id FROM user_blocks WHERE blocker_id = $1 AND blocked_id = $2
