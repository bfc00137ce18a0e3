// What arrived for a sell is priced with every other order figure, in orders/pricing/.
export { priceDeposits, type DepositPricingInput } from '../orders/pricing/price-order';
