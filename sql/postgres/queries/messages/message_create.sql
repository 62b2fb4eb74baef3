-- A new message; its id.
INSERT INTO messages (sender_id, recipient_id, listing_id, subject, body) VALUES ($1, $2, $3, $4, $5) RETURNING id
