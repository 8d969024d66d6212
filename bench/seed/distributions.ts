import type { SeededRandom } from "../../test/reliability/seeded-random.ts";

/** A version-4 UUID drawn from the seeded generator, so ids are the same on every run. */
export function seededUuid(random: SeededRandom): string {
  const hex = random.hex(16);
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Draws indexes in [0, weights.length) in proportion to their weights (binary search over the
 * cumulative sums): popular books and prolific authors without a scan per draw.
 */
export class WeightedPicker {
  private readonly cumulative: Float64Array;

  constructor(weights: ArrayLike<number>) {
    this.cumulative = new Float64Array(weights.length);
    let total = 0;
    for (let index = 0; index < weights.length; index += 1) {
      total += weights[index]!;
      this.cumulative[index] = total;
    }
  }

  pick(random: SeededRandom): number {
    const target = random.next() * this.cumulative[this.cumulative.length - 1]!;
    let low = 0;
    let high = this.cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.cumulative[middle]! <= target) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/**
 * Zipf-like weights over a shuffled order: a few items take most of the draws, and which ones
 * the seed decides, not their position.
 */
export function zipfWeights(count: number, exponent: number, random: SeededRandom): Float64Array {
  const ranks = random.shuffle(Array.from({ length: count }, (_, index) => index));
  return Float64Array.from(ranks, (rank) => 1 / (rank + 1) ** exponent);
}
