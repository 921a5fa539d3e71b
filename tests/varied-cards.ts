/**
 * Cards of a page like a browse page, for compression tests: words repeating but not in a pattern,
 * so brotli's levels give different sizes. The same seed gives the same cards.
 */
const WORDS = ["room", "annex", "Moratuwa", "near", "campus", "LKR", "furnished", "girls", "kitchen", "bus"];

export function variedCards(seed: number, count: number): string {
  let state = seed;
  const cards = Array.from({ length: count }, (_, i) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return `<li data-id="${i * 37}">${WORDS[state % 10]} ${WORDS[(state >> 8) % 10]} ${state % 90_000}</li>`;
  });
  return cards.join("");
}
