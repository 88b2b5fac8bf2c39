import {
  assetsOfType,
  DEFAULT_OPTION_TYPE,
  findAsset,
  type OptionType,
  optionTypes,
} from "@tp/domain/catalogue";
import { useCallback, useState } from "react";
import type { TradeFormValues } from "./trade-rules.ts";

function firstAssetOf(optionType: OptionType): string {
  return assetsOfType(optionType)[0]?.symbol ?? "";
}

export interface TradeForm {
  values: TradeFormValues;
  /** SPEC §4: resets the asset, then auto-selects the first asset of the type. */
  setOptionType: (optionType: string) => void;
  /** Only assets of the current option type are taken; others are ignored (SPEC §4). */
  setAsset: (symbol: string) => void;
  setAmount: (amount: string) => void;
  setExpiration: (expiration: string) => void;
  /** A market picked in the overview: its option type and the asset itself. */
  pickAsset: (symbol: string) => void;
  /** SPEC §4: after a placed trade, amount and expiration clear. */
  clearAfterTrade: () => void;
}

/**
 * The trade form's state (SPEC §3 "Trade form state"), on the dashboard page so the market
 * overview can fill it. `onAssetChosen` hears the trader's own asset choices (the chart
 * follows them).
 */
export function useTradeForm(onAssetChosen: (symbol: string) => void): TradeForm {
  const [values, setValues] = useState<TradeFormValues>(() => ({
    optionType: DEFAULT_OPTION_TYPE,
    asset: firstAssetOf(DEFAULT_OPTION_TYPE),
    amount: "",
    expiration: "",
  }));

  const setOptionType = useCallback(
    (next: string) => {
      const optionType = optionTypes.find((type) => type === next);
      if (optionType === undefined) return;
      const asset = firstAssetOf(optionType);
      setValues((current) => ({ ...current, optionType, asset }));
      if (asset) onAssetChosen(asset);
    },
    [onAssetChosen],
  );

  const setAsset = useCallback(
    (symbol: string) => {
      if (symbol !== "" && !assetsOfType(values.optionType).some((a) => a.symbol === symbol)) {
        return;
      }
      setValues((current) => ({ ...current, asset: symbol }));
      if (symbol !== "") onAssetChosen(symbol);
    },
    [values.optionType, onAssetChosen],
  );

  const pickAsset = useCallback((symbol: string) => {
    const asset = findAsset(symbol);
    if (!asset) return;
    setValues((current) => ({ ...current, optionType: asset.optionType, asset: symbol }));
  }, []);

  const setAmount = useCallback(
    (amount: string) => setValues((current) => ({ ...current, amount })),
    [],
  );
  const setExpiration = useCallback(
    (expiration: string) => setValues((current) => ({ ...current, expiration })),
    [],
  );
  const clearAfterTrade = useCallback(
    () => setValues((current) => ({ ...current, amount: "", expiration: "" })),
    [],
  );

  return {
    values,
    setOptionType,
    setAsset,
    setAmount,
    setExpiration,
    pickAsset,
    clearAfterTrade,
  };
}
