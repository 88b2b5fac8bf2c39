import type {
  PaymentMethodId,
  PaymentMethodView,
  TransactionRow,
  WalletData,
} from "@tp/domain/funding";
import { paymentMethodKindById } from "@tp/domain/funding";

/** Payment methods as GET /payment-methods gives them, configured unless told otherwise. */
export function methodFixture(
  id: PaymentMethodId,
  overrides: Partial<PaymentMethodView> = {},
): PaymentMethodView {
  const kind = paymentMethodKindById[id];
  const names: Record<PaymentMethodId, string> = {
    bitcoin: "Bitcoin",
    litecoin: "Litecoin",
    ethereum: "Ethereum",
    "perfect-money": "Perfect Money",
    "bitcoin-cash": "Bitcoin Cash",
    usdt: "USDT",
    "bank-transfer": "Bank Transfer",
    "western-union": "Western Union",
  };
  const configured: Record<
    typeof kind,
    { wallet_address: string | null; additional_details: Record<string, string> }
  > = {
    crypto: { wallet_address: "bc1qexampleaddress0000000000000000000", additional_details: {} },
    e_wallet: { wallet_address: "U1234567", additional_details: {} },
    bank: {
      wallet_address: null,
      additional_details: {
        bank_name: "First Example Bank",
        account_name: "TradePlatform Ltd",
        account_number: "12345678",
        swift_code: "FEBKGB2L",
      },
    },
    money_transfer: {
      wallet_address: null,
      additional_details: { receiver_name: "Jane Example", location: "Nairobi, Kenya" },
    },
  };
  return {
    id,
    name: names[id],
    kind,
    is_active: true,
    is_recommended: false,
    is_available: true,
    ...configured[kind],
    deposit_fee_fixed_cents: 0,
    deposit_fee_basis_points: 0,
    withdrawal_fee_fixed_cents: 0,
    withdrawal_fee_basis_points: 0,
    ...overrides,
  };
}

/** A method as a fresh install seeds it: active but unconfigured, so unavailable. */
export function unconfiguredMethod(id: PaymentMethodId): PaymentMethodView {
  return methodFixture(id, { is_available: false, wallet_address: null, additional_details: {} });
}

export const bitcoin = methodFixture("bitcoin", { is_recommended: true });
export const bank = methodFixture("bank-transfer");
export const westernUnion = methodFixture("western-union");
export const litecoinOff = unconfiguredMethod("litecoin");

export const walletFixture: WalletData = {
  payment_method_id: "bitcoin",
  name: "Bitcoin",
  wallet_address: "bc1qexampleaddress0000000000000000000",
  instructions: ["Send only BTC to this address.", "Use the payment reference as the memo."],
  coin_price: null,
};

export function transactionFixture(overrides: Partial<TransactionRow> = {}): TransactionRow {
  return {
    id: 1,
    timestamp: "2026-01-15T12:00:00.000Z",
    type: "deposit",
    method: "Bitcoin",
    payment_method_id: "bitcoin",
    amount: 250,
    fee: 0,
    net_amount: 250,
    status: "confirmed",
    transactionId: "DEP-AAAA1111",
    note: null,
    ...overrides,
  };
}

/** A file whose first bytes say what it is (the check reads content, never the name). */
export const pngBytes = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 1, 2];
export const pdfBytes = [0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x37, 0x0a, 0, 0, 0, 0];
export const webpBytes = [0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50, 0, 0];

export function fileOf(bytes: number[], name: string, type = "application/octet-stream"): File {
  return new File([new Uint8Array(bytes)], name, { type });
}
