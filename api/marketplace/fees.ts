// The marketplace's fees (rates in schemas/marketplace.ts FEES): what the fee preview shows a
// seller and what the checkout charges a buyer. Amounts in EUR, rounded to the cent.
import { FEES } from '../../schemas/marketplace.js';

const cents = (eur: number) => Math.round((eur + Number.EPSILON) * 100) / 100;

/** What the seller pays out of `price`, and keeps. */
export function sellerFees(price: number, imageProtection: boolean) {
  const marketplaceAmt = cents(price * FEES.marketplaceRate);
  const imageProtectionRate = imageProtection ? FEES.imageProtectionRate : 0;
  const imageProtectionAmt = cents(price * imageProtectionRate);
  const totalAmt = cents(marketplaceAmt + imageProtectionAmt);
  return {
    marketplace_rate: FEES.marketplaceRate,
    marketplace_amt: marketplaceAmt,
    image_protection_rate: imageProtectionRate,
    image_protection_amt: imageProtectionAmt,
    total_amt: totalAmt,
    seller_payout: cents(price - totalAmt),
  };
}

/** What the buyer pays on top of `amount`, and in all. */
export function buyerCharges(amount: number): { handling_fee: number; buyer_total: number } {
  const handlingFee = cents(amount * FEES.buyerHandlingRate);
  return { handling_fee: handlingFee, buyer_total: cents(amount + handlingFee) };
}
