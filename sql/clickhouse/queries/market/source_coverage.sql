-- Per source: the region it trades in, its currencies, how many cards and variants it prices and
-- the newest day it priced, over ungraded market prices.
SELECT source, any(region) AS region, groupUniqArray(currency) AS currencies,
       uniqExact(card_id) AS cards, uniqExact(variant_id) AS variants, toString(max(day)) AS last_day, count() AS values
FROM holo.market_daily
GROUP BY source
ORDER BY source
