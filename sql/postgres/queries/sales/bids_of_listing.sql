-- A listing's bids, highest first, with who made them (the service decides who may see names).
SELECT b.id, b.listing_id, b.bidder_id, u.username AS bidder_username, b.amount, b.message, b.status,
       to_char(b.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at
FROM bids b JOIN users u ON u.id = b.bidder_id
WHERE b.listing_id = $1
ORDER BY b.amount DESC, b.id
