-- The seller marketplace, first part: seller profiles and listings (spec: "Listing (create
-- fields)", "Listing" states, "Verification code record", "Time constants"). Sellers are accounts
-- with is_seller, display_name and country (users); the extended profile is its own row.
CREATE TABLE seller_profiles (
  user_id              integer PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  bio                  text CHECK (length(bio) <= 2000),
  location             text CHECK (length(location) <= 120),
  shipping_policy      text CHECK (length(shipping_policy) <= 2000),
  return_policy        text CHECK (length(return_policy) <= 2000),
  website              text CHECK (length(website) <= 300),
  marketplace_username text CHECK (length(marketplace_username) <= 60),
  marketplace_linked_at timestamptz,
  updated_at           timestamptz NOT NULL DEFAULT now()
);

-- A listing is one offer of `quantity` copies of a card at `price` EUR. `status` is what the
-- seller or a sale made it; an active listing past `expires_at` is expired whether or not the
-- expiry schedule has marked it yet (reads compare the time).
CREATE TABLE listings (
  id                integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  seller_id         integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  card_id           integer NOT NULL REFERENCES cards (id),
  price             numeric(12, 2) NOT NULL CHECK (price > 0),
  currency          text NOT NULL DEFAULT 'EUR' CHECK (currency = 'EUR'),
  condition         text NOT NULL CHECK (condition IN ('NM', 'LP', 'MP', 'HP', 'DMG')),
  quantity          integer NOT NULL DEFAULT 1 CHECK (quantity BETWEEN 1 AND 10000),
  variant           text CHECK (length(variant) <= 100),
  graded            boolean NOT NULL DEFAULT false,
  grading_company   text CHECK (grading_company IN ('PSA', 'BGS', 'CGC', 'SGC')),
  grade             numeric(3, 1) CHECK (grade BETWEEN 1 AND 10),
  description       text CHECK (length(description) <= 2000),
  accepts_offers    boolean NOT NULL DEFAULT false,
  buy_now_enabled   boolean NOT NULL DEFAULT true,
  image_urls        text[] NOT NULL DEFAULT '{}',
  watermark_enabled boolean NOT NULL DEFAULT false,
  status            text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'sold', 'expired', 'withdrawn')),
  -- Printed on the seller's photos; case-insensitive, stored upper case (alphabet without 0, O, 1, I).
  verification_code text NOT NULL UNIQUE CHECK (verification_code ~ '^[2-9A-HJ-NP-Z]{6,8}$'),
  expires_at        timestamptz NOT NULL,
  renewal_count     integer NOT NULL DEFAULT 0,
  renewed_at        timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now()
);
-- Browse: open listings by price, optionally of one game (through cards) and condition.
CREATE INDEX listings_open_by_price ON listings (price, id) WHERE status = 'active';
CREATE INDEX listings_open_by_card ON listings (card_id) WHERE status = 'active';
CREATE INDEX listings_of_seller ON listings (seller_id, created_at DESC);
-- The expiry schedule's scan.
CREATE INDEX listings_expiring ON listings (expires_at) WHERE status = 'active';

-- A listing as every read shows it (schemas/marketplace.ts ListingOut), with its card, set, game
-- and seller; an active listing past its expiry reads as expired.
CREATE VIEW listing_records AS
SELECT l.id, l.seller_id, l.card_id, c.name AS card_name, s.name AS set_name, g.slug AS tcg_slug,
       u.username AS seller_username, l.price::float8 AS price, l.currency, l.condition, l.quantity,
       l.variant, l.graded, l.grading_company, l.grade::float8 AS grade, l.description,
       l.accepts_offers, l.buy_now_enabled, l.image_urls, l.watermark_enabled,
       CASE WHEN l.status = 'active' AND l.expires_at <= now() THEN 'expired' ELSE l.status END AS status,
       l.verification_code,
       to_char(l.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS expires_at,
       l.renewal_count,
       to_char(l.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at
FROM listings l
JOIN cards c ON c.id = l.card_id
JOIN sets s ON s.id = c.set_id
JOIN games g ON g.id = c.game_id
JOIN users u ON u.id = l.seller_id;
