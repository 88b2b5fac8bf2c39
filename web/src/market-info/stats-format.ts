/** Display formats of the blockchain statistics (en-US, SPEC §9). */

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const usdWhole = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  maximumFractionDigits: 0,
});
const integer = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const decimal2 = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });
const decimal4 = new Intl.NumberFormat("en-US", { maximumFractionDigits: 4 });

export function formatUsd(value: number): string {
  // Cents matter for a price, not for a day's volume in the billions.
  return Math.abs(value) >= 1_000_000 ? usdWhole.format(value) : usd.format(value);
}

export function formatInteger(value: number): string {
  return integer.format(value);
}

export function formatBtc(value: number): string {
  return `${(Math.abs(value) < 1_000 ? decimal4 : decimal2).format(value)} BTC`;
}

export function formatMinutes(value: number): string {
  return `${decimal2.format(value)} min`;
}

const hashUnits = ["H/s", "kH/s", "MH/s", "GH/s", "TH/s", "PH/s", "EH/s", "ZH/s"] as const;

/** 6.5e20 → "650 EH/s". */
export function formatHashRate(hashesPerSecond: number): string {
  let value = hashesPerSecond;
  let unit = 0;
  while (Math.abs(value) >= 1_000 && unit < hashUnits.length - 1) {
    value /= 1_000;
    unit += 1;
  }
  return `${decimal2.format(value)} ${hashUnits[unit]}`;
}

const scaleUnits = ["", "thousand", "million", "billion", "trillion"] as const;

/** 1.0215e14 → "102.15 trillion" (difficulty is a plain number). */
export function formatLarge(value: number): string {
  let scaled = value;
  let unit = 0;
  while (Math.abs(scaled) >= 1_000 && unit < scaleUnits.length - 1) {
    scaled /= 1_000;
    unit += 1;
  }
  return unit === 0 ? decimal2.format(scaled) : `${decimal2.format(scaled)} ${scaleUnits[unit]}`;
}
