import type { PaymentMethodKind } from "@tp/domain/funding";

/** How the back office names each kind of payment method. */
export const kindLabels: Record<PaymentMethodKind, string> = {
  crypto: "Crypto",
  bank: "Bank transfer",
  money_transfer: "Money transfer",
  e_wallet: "E-wallet",
};

/** What the trader's deposit flow needs before the method stops being "Currently unavailable". */
export const configurationNeeds: Record<PaymentMethodKind, string> = {
  crypto: "a wallet address",
  e_wallet: "an account id (wallet address)",
  bank: "a bank name",
  money_transfer: "a location",
};
