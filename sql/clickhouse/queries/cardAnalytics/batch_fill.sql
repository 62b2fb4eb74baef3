-- A batch of cards' daily market rows since {since} (the earliest day any precomputed answer
-- reads), read once from the view; the batch's queries filter their own windows from it. A day's
-- rows do not depend on `since` (it only bounds as_of), so each query's rows are those the view
-- would give it for its own window.
INSERT INTO holo.card_analytics_batch (card_id, variant_id, grading_company, grade, day, source, region, currency, price, price_usd)
SELECT card_id, variant_id, grading_company, grade, day, source, region, currency, price, price_usd
FROM holo.cards_market_daily_usd(card_ids = {card_ids:Array(UInt32)}, since = {since:Date})
