import { assetsOfType, expirations, optionTypeLabels, optionTypes } from "@tp/domain/catalogue";
import { SelectField, TextField } from "../../components/form-fields.tsx";
import { formatPrice } from "../../components/trade-format.ts";
import type { TradeField } from "./trade-rules.ts";
import type { TradeFieldRefs } from "./use-trade-flow.ts";
import type { TradeForm } from "./use-trade-form.ts";

/** The trade form's choices: option type, asset (with its last price), amount, expiration. */
export function TradeFields({
  form,
  refs,
  invalid,
  lastPrice,
}: {
  form: TradeForm;
  refs: TradeFieldRefs;
  invalid: TradeField | null;
  /** The chosen asset's live price, else the market's last one. */
  lastPrice: number | null | undefined;
}) {
  const { values } = form;
  return (
    <>
      <SelectField
        label="Option type"
        value={values.optionType}
        onChange={(event) => form.setOptionType(event.target.value)}
      >
        {optionTypes.map((type) => (
          <option key={type} value={type}>
            {optionTypeLabels[type]}
          </option>
        ))}
      </SelectField>
      <div>
        <SelectField
          ref={refs.asset}
          label="Asset"
          value={values.asset}
          aria-invalid={invalid === "asset" || undefined}
          onChange={(event) => form.setAsset(event.target.value)}
        >
          <option value="">Select asset</option>
          {assetsOfType(values.optionType).map((asset) => (
            <option key={asset.symbol} value={asset.symbol}>
              {asset.name} ({asset.symbol})
            </option>
          ))}
        </SelectField>
        {values.asset ? (
          <p className="mt-1 text-xs text-slate-500 tabular-nums dark:text-slate-400">
            Last price{" "}
            <span className="font-semibold text-slate-700 dark:text-slate-200">
              {formatPrice(values.asset, lastPrice)}
            </span>
          </p>
        ) : null}
      </div>
      <TextField
        ref={refs.amount}
        label="Amount (USD)"
        type="number"
        inputMode="decimal"
        min={0}
        step={0.01}
        placeholder="0.00"
        value={values.amount}
        aria-invalid={invalid === "amount" || undefined}
        onChange={(event) => form.setAmount(event.target.value)}
      />
      <SelectField
        ref={refs.expiration}
        label="Expiration"
        value={values.expiration}
        aria-invalid={invalid === "expiration" || undefined}
        onChange={(event) => form.setExpiration(event.target.value)}
      >
        <option value="">Select expiration time</option>
        {expirations.map((option) => (
          <option key={option.seconds} value={option.seconds}>
            {option.label} ({option.payoutPercent}%)
          </option>
        ))}
      </SelectField>
    </>
  );
}
