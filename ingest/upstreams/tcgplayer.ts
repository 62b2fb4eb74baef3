// TCGplayer's API (docs.tcgplayer.com), for holders of API keys: a bearer token from POST /token
// (grant_type=client_credentials with HOLO_TCGPLAYER_CLIENT_ID and _SECRET, valid about two
// weeks), then GET /pricing/product/{productIds} for the catalogue's TCGplayer product ids
// (cross_refs), comma-separated in batches of at most TCGPLAYER_BATCH. One token serves every run
// of a worker until it nears its expiry. The answer carries no date: prices are the run's day.
import { marketProductIds } from '../../sql/priceLoads.js';
import { parseTcgplayerPricing } from '../sources/tcgplayerPricing.js';
import { BearerToken, UpstreamAuthError, UpstreamError, type Fetched, type Upstream } from './http.js';
import { documentOf, type FeedContext, type FeedItem, type PriceConnector } from './types.js';

export const TCGPLAYER_BATCH = 250;

const tokens = new WeakMap<Upstream, BearerToken>();

function tokenOf(upstream: Upstream): BearerToken {
  let token = tokens.get(upstream);
  if (!token) {
    token = new BearerToken(() =>
      upstream.json('/token', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: upstream.credential('HOLO_TCGPLAYER_CLIENT_ID') ?? '',
          client_secret: upstream.credential('HOLO_TCGPLAYER_CLIENT_SECRET') ?? '',
        }).toString(),
      }),
    );
    tokens.set(upstream, token);
  }
  return token;
}

export const tcgplayer: PriceConnector = {
  games: ['flesh-and-blood'],
  async *documents(upstream: Upstream, ctx: FeedContext): AsyncGenerator<FeedItem> {
    const ids = (await marketProductIds(ctx.pool, ctx.game, 'us_marketplace_product_id'))
      .map((r) => r.ref)
      .filter((id) => /^\d+$/.test(id));
    const token = tokenOf(upstream);
    for (let i = 0; i < ids.length; i += TCGPLAYER_BATCH) {
      const batch = ids.slice(i, i + TCGPLAYER_BATCH);
      const res = await pricingOf(upstream, token, batch);
      if (res) yield documentOf(res, (body) => parseTcgplayerPricing(body, ctx.day));
    }
  },
};

/**
 * One batch's pricing. A 401 to a token not yet expired (revoked, or issued before a restart of
 * theirs) gets one new token and one more try; a second 401 fails the feed naming the variables.
 * A batch none of whose products TCGplayer knows any more is answered 404: nothing to price (null).
 */
async function pricingOf(upstream: Upstream, token: BearerToken, batch: string[]): Promise<Fetched | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await upstream.fetch(`/pricing/product/${batch.join(',')}`, {
        headers: { Authorization: `bearer ${await token.value()}`, Accept: 'application/json' },
      });
    } catch (err) {
      if (err instanceof UpstreamError && err.status === 404) return null;
      if (err instanceof UpstreamAuthError && err.status === 401 && attempt === 1) {
        token.forget();
        continue;
      }
      throw err;
    }
  }
}
