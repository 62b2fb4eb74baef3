-- A precompute ends: its generation becomes current, under the prices epoch and day it computed.
UPDATE card_analytics_state
SET generation = $1, prices_epoch = $2, day = $3::date, watermark = $4, pending_since = NULL
