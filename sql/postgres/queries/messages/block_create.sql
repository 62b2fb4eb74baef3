-- $1 blocks $2 (again: nothing changes).
INSERT INTO user_blocks (blocker_id, blocked_id) VALUES ($1, $2) ON CONFLICT DO NOTHING
