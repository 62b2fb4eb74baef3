-- What every column of the documented tables and views means, so that DESCRIBE tells a data team
-- (price_points carries its comments since 001). See sql/README.md for how the tables fit together.
ALTER TABLE holo.price_latest {{ON_CLUSTER}}
  COMMENT COLUMN card_id 'PostgreSQL cards.id',
  COMMENT COLUMN variant_id 'PostgreSQL variants.id',
  COMMENT COLUMN game 'games.slug',
  COMMENT COLUMN region 'eu, us or jp: the market the source trades in',
  COMMENT COLUMN source 'upstream source name',
  COMMENT COLUMN price_type 'as in price_points; empty for graded rows',
  COMMENT COLUMN grading_company 'raw for ungraded; psa, bgs, cgc, sgc, ace, other',
  COMMENT COLUMN grade 'empty for raw; 10, 9.5, ...',
  COMMENT COLUMN currency 'ISO 4217 of amount',
  COMMENT COLUMN amount 'the newest non-outlier price of the series, in currency',
  COMMENT COLUMN as_of 'the day of that price; a later day replaces an earlier one (read with FINAL)';

ALTER TABLE holo.price_latest {{ON_CLUSTER}} MODIFY COMMENT 'Latest non-outlier value per series, kept by price_latest_mv on every insert into price_points. ReplacingMergeTree(as_of): read with FINAL.';

ALTER TABLE holo.fx_rates {{ON_CLUSTER}}
  COMMENT COLUMN day 'the publication day (ECB reference rates; no rows on TARGET holidays)',
  COMMENT COLUMN source 'where the rate came from (ecb)',
  COMMENT COLUMN ingested_at 'when Holo loaded the row; the newest version of a day wins';

ALTER TABLE holo.ingest_rejects {{ON_CLUSTER}}
  COMMENT COLUMN game 'games.slug of the feed',
  COMMENT COLUMN rejected_at 'when the row was refused; kept 180 days';

ALTER TABLE holo.market_daily {{ON_CLUSTER}}
  COMMENT COLUMN day 'the price day (price_points.as_of)',
  COMMENT COLUMN game 'games.slug',
  COMMENT COLUMN region 'eu, us or jp',
  COMMENT COLUMN price_type 'the market price type of the source (market, trend, raw_us, raw_jp, last_sold)',
  COMMENT COLUMN card_id 'PostgreSQL cards.id',
  COMMENT COLUMN variant_id 'PostgreSQL variants.id',
  COMMENT COLUMN source 'upstream source name',
  COMMENT COLUMN observation_id 'distinguishes several observations of one series on one day',
  COMMENT COLUMN currency 'ISO 4217 of amount',
  COMMENT COLUMN amount 'non-outlier raw market price, in currency';

ALTER TABLE holo.market_daily {{ON_CLUSTER}} MODIFY COMMENT 'Raw market prices by day first (kept by market_daily_mv): the movers and market indices read it. ReplacingMergeTree(ingested_at): read with FINAL.';

ALTER TABLE holo.sealed_price_points {{ON_CLUSTER}}
  COMMENT COLUMN game 'games.slug',
  COMMENT COLUMN source 'upstream source name',
  COMMENT COLUMN currency 'ISO 4217 of amount',
  COMMENT COLUMN amount 'price in currency',
  COMMENT COLUMN as_of 'day the upstream says the price is for',
  COMMENT COLUMN ingested_at 'when Holo loaded the row; the newest version wins',
  COMMENT COLUMN is_outlier 'flagged by robust statistics at load; excluded from every read',
  COMMENT COLUMN batch_id 'ingestion batch that loaded the row';

ALTER TABLE holo.price_daily {{ON_CLUSTER}}
  COMMENT COLUMN card_id 'PostgreSQL cards.id',
  COMMENT COLUMN variant_id 'PostgreSQL variants.id',
  COMMENT COLUMN region 'eu, us or jp',
  COMMENT COLUMN source 'upstream source name',
  COMMENT COLUMN price_type 'as in price_points',
  COMMENT COLUMN grading_company 'raw for ungraded; psa, bgs, cgc, sgc, ace, other',
  COMMENT COLUMN grade 'empty for raw',
  COMMENT COLUMN currency 'ISO 4217 of the amounts',
  COMMENT COLUMN day 'the price day',
  COMMENT COLUMN median_amount 'exact median of the non-outlier observations of the day',
  COMMENT COLUMN min_amount 'lowest observation of the day',
  COMMENT COLUMN max_amount 'highest observation of the day',
  COMMENT COLUMN close_amount 'the last observation of the day (by observation_id)',
  COMMENT COLUMN observations 'non-outlier observations that day';

ALTER TABLE holo.price_daily {{ON_CLUSTER}} MODIFY COMMENT 'One row per series and day over price_points FINAL, non-outliers only; filter by card_id.';

ALTER TABLE holo.fx_to_usd {{ON_CLUSTER}}
  COMMENT COLUMN currency 'ISO 4217',
  COMMENT COLUMN day 'publication day of the rate',
  COMMENT COLUMN usd_per_unit 'US dollars per unit of currency that day; ASOF JOIN on day for the last published rate';
