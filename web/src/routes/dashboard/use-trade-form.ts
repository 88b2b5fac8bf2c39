import { assetsOfType, findAsset, type OptionType, optionTypes } from "@tp/domain/catalogue";
import { useCallback, useMemo, useState } from "react";
import type { MarketSelection } from "./market-selection.ts";
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
  /** An asset picked in the market panel or the ticker: of any type (the type follows). */
  pickAsset: (symbol: string) => void;
  /** SPEC §4: after a placed trade, amount and expiration clear. */
  clearAfterTrade: () => void;
}

/**
 * The trade form's state (SPEC §3 "Trade form state"). Its asset is the dashboard's one
 * selection (market-selection.ts) and its option type is that asset's type, so whatever
 * picks an asset (panel, ticker, these selects) moves the form and the chart together. The
 * form keeps only what is its own: amount, expiration, and whether the trader emptied the
 * asset select ("Select asset", SPEC §5's first check) while the chart stays where it was.
 * Every way of picking an asset goes through the selection here, so none is missed.
 */
export function useTradeForm(selection: MarketSelection): TradeForm {
  const { symbol, select } = selection;
  const [assetCleared, setAssetCleared] = useState(false);
  const [amount, setAmount] = useState("");
  const [expiration, setExpiration] = useState("");
  const optionType = findAsset(symbol)?.optionType ?? optionTypes[0];
  const values = useMemo<TradeFormValues>(
    () => ({ optionType, asset: assetCleared ? "" : symbol, amount, expiration }),
    [optionType, assetCleared, symbol, amount, expiration],
  );

  const setOptionType = useCallback(
    (next: string) => {
      const type = optionTypes.find((candidate) => candidate === next);
      if (type === undefined) return;
      select(firstAssetOf(type));
      setAssetCleared(false);
    },
    [select],
  );

  const setAsset = useCallback(
    (next: string) => {
      if (next === "") {
        setAssetCleared(true);
        return;
      }
      if (!assetsOfType(optionType).some((asset) => asset.symbol === next)) return;
      select(next);
      setAssetCleared(false);
    },
    [optionType, select],
  );

  const pickAsset = useCallback(
    (next: string) => {
      select(next);
      setAssetCleared(false);
    },
    [select],
  );

  const clearAfterTrade = useCallback(() => {
    setAmount("");
    setExpiration("");
  }, []);

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
