-- A new in-app notification; its id.
INSERT INTO notifications (user_id, kind, title, body, data) VALUES ($1, $2, $3, $4, $5) RETURNING id
