/**
 * Zipf-like popularity over `n` items ranked by popularity: the item of rank
 * k (1-based) is drawn with probability proportional to 1/k^s. With s ≈ 1 a
 * few items take a large share of requests and a long tail is seen rarely,
 * as with pages of a real site. Returns 0-based indexes.
 */
export function createZipfSampler(n: number, s: number, random: () => number): () => number {
  if (!Number.isInteger(n) || n < 1) throw new Error("a Zipf sampler needs at least one item");
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let k = 1; k <= n; k++) {
    total += 1 / k ** s;
    cumulative[k - 1] = total;
  }
  return () => {
    const target = random() * total;
    // The first rank whose cumulative weight passes the target.
    let low = 0;
    let high = n - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (cumulative[middle] > target) high = middle;
      else low = middle + 1;
    }
    return low;
  };
}
