-- $1 unblocks $2; a row when there was a block.
DELETE FROM user_blocks WHERE blocker_id = $1 AND blocked_id = $2 RETURNING blocked_id AS id
