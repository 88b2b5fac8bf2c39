/**
 * Seeded pseudo-random numbers for the price simulator: the same seed gives the same price
 * path, so tests and demos are reproducible. Not for anything secret.
 */

/** mulberry32: a tiny 32-bit generator with good statistical quality for simulation. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * A 32-bit seed derived from the feed's seed and a name (FNV-1a), so each asset walks its
 * own stream: an asset's path does not change when other assets move to another source.
 */
export function derivedSeed(seed: number, name: string): number {
  let hash = 0x811c9dc5;
  for (const character of `${seed}:${name}`) {
    hash ^= character.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A standard normal draw (Box–Muller). `1 - u` keeps the logarithm's argument in (0, 1]. */
export function standardNormal(random: () => number): number {
  const radius = Math.sqrt(-2 * Math.log(1 - random()));
  return radius * Math.cos(2 * Math.PI * random());
}
