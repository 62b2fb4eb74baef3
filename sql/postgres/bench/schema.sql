-- The benchmark's PostgreSQL copy of ClickHouse price_points (npm run bench:analytics): the same
-- rows, with the indexes a PostgreSQL user would give these queries.
CREATE SCHEMA IF NOT EXISTS bench;
CREATE UNLOGGED TABLE IF NOT EXISTS bench.price_points (
  card_id         integer NOT NULL,
  variant_id      integer NOT NULL,
  game            text NOT NULL,
  region          text NOT NULL,
  source          text NOT NULL,
  price_type      text NOT NULL,
  grading_company text NOT NULL,
  grade           text NOT NULL,
  currency        text NOT NULL,
  amount          numeric(18, 4) NOT NULL,
  as_of           date NOT NULL,
  is_outlier      boolean NOT NULL
);
