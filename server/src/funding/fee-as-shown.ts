import { feeChangedMessage } from "@tp/domain/fees";
import { centsFromDollars } from "@tp/domain/money";
import { AppError } from "../http/errors.ts";

/**
 * A deposit or withdrawal is charged only the fee its form showed (issue 13 item 3): when the
 * request says which fee that was (`expected_fee`, dollars) and staff have changed the method's
 * fee since, it is refused before anything is written. Requests without it are charged the fee
 * in force, which their reply states.
 */
export function refuseUnlessFeeAsShown(
  methodName: string,
  expectedFeeDollars: number | undefined,
  feeCents: number,
): void {
  if (expectedFeeDollars === undefined) return;
  const shownCents = centsFromDollars(expectedFeeDollars);
  if (shownCents === feeCents) return;
  throw new AppError("FEE_CHANGED", feeChangedMessage(methodName, shownCents ?? 0, feeCents));
}
