-- The precompute now also files each card's daily series (issue 35), and reads take a card whose
-- statistics it filed without a series as one without rows in that series. A generation computed
-- before holds none: forgotten, so reads ask ClickHouse until the next start's catch-up computes
-- every card.
DELETE FROM card_analytics;
DELETE FROM card_analytics_state;
