// The marketplace's fees (rates in schemas/marketplace.ts FEES): what the fee preview shows a
// seller and what the checkout charges a buyer. Computed on whole cents in integers (each fee
// rounded half up to the cent), so the parts add up to the price exactly: fees + payout = price,
// price + handling fee = buyer total.
import { FEE_BASIS_POINTS, FEES } from '../../schemas/marketplace.js';
import { fromCents, shareOf } from '../../schemas/money.js';

/** What the seller pays out of a price of `priceCents`, and keeps, in EUR. */
export function sellerFees(priceCents: number, imageProtection: boolean) {
  const marketplaceCents = shareOf(priceCents, FEE_BASIS_POINTS.marketplace);
  const imageProtectionCents = imageProtection ? shareOf(priceCents, FEE_BASIS_POINTS.imageProtection) : 0;
  const totalCents = marketplaceCents + imageProtectionCents;
  return {
    marketplace_rate: FEES.marketplaceRate,
    marketplace_amt: fromCents(marketplaceCents),
    image_protection_rate: imageProtection ? FEES.imageProtectionRate : 0,
    image_protection_amt: fromCents(imageProtectionCents),
    total_amt: fromCents(totalCents),
    seller_payout: fromCents(priceCents - totalCents),
  };
}

/** What the buyer pays on top of `amountCents`, and in all, in whole cents. */
export function buyerCharges(amountCents: number): { handlingFeeCents: number; buyerTotalCents: number } {
  const handlingFeeCents = shareOf(amountCents, FEE_BASIS_POINTS.buyerHandling);
  return { handlingFeeCents, buyerTotalCents: amountCents + handlingFeeCents };
}
