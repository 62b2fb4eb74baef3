-- Records the carrier and tracking number of a shipment.
UPDATE transactions SET carrier = $2, tracking_number = $3, updated_at = now() WHERE id = $1
