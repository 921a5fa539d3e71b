// Every search and filter shape the browse page must answer fast at
// 1,000,000 listings (ADR 011), and a timer for them:
//   npm run bench:search -- [--data-dir DIR | --database-url URL] [--runs 20]
//       times each shape through searchListings with one connection
//   npm run bench:search -- --base-url http://127.0.0.1:3400 [--runs 20]
//       times each shape as single requests to a running production server
//   npm run bench:search -- --photo-copies 100000 [--data-dir DIR | --database-url URL] [--runs 200]
//       fills the database with 3 photo fingerprints for each of that many
//       listings (added once) and times the copied-photo lookup (ADR 074)
//   npm run bench:search -- --description-copies 100000 [--data-dir DIR | --database-url URL] [--runs 200]
//       fills the database with a generated room ad's sketch for each of that
//       many listings (added once) and times the near-duplicate description
//       lookup (ADR 079)
// The full benchmark (scripts/bench.ts) can import searchShapes(): this module
// imports nothing from the app at the top, so plain Node can load it.

export type SearchShape = { name: string; path: string };

/**
 * Public URLs, one per query shape. The values exist in the synthetic seed
 * (app/seed/places.ts): 'Peradeniya' is a common area, 'Dematagoda' one of
 * the rarest (1 listing in 400), 'morat' a prefix of Moratuwa, 'Kandy' a city
 * and part of areas; 'room' is in half the listings, 'campus' in nearly all.
 */
export function searchShapes(): SearchShape[] {
  return [
    { name: "newest first", path: "/browse" },
    { name: "deepest page (page 1,000: the last one counted)", path: "/browse?page=1000" },
    { name: "university", path: "/browse?university=University%20of%20Moratuwa" },
    { name: "faculty", path: "/browse?university=University%20of%20Kelaniya&faculty=Faculty%20of%20Medicine%20Ragama" },
    { name: "city", path: "/browse?city=jaffna" },
    { name: "property type", path: "/browse?propertyType=apartment" },
    { name: "gender", path: "/browse?gender=female" },
    { name: "min price", path: "/browse?minPrice=40000" },
    { name: "max price", path: "/browse?maxPrice=6000" },
    { name: "price, oldest cheapest first", path: "/browse?maxPrice=15000&sort=price_asc" },
    // Matches crowd at one end of the price order: every cheaper listing is passed over first.
    { name: "property type, cheapest first", path: "/browse?propertyType=apartment&sort=price_asc" },
    {
      name: "combined filters",
      path: "/browse?university=University%20of%20Peradeniya&propertyType=single&gender=male&minPrice=10000&maxPrice=20000",
    },
    { name: "combined filters, deep page", path: "/browse?propertyType=shared&gender=female&maxPrice=10000&page=300" },
    { name: "max move-in cost", path: "/browse?maxMoveIn=40000" },
    { name: "bills and meals included", path: "/browse?bills=included&meals=included" },
    {
      name: "attached bathroom, cooking and visitors allowed, no curfew",
      path: "/browse?bathroom=attached&cooking=allowed&visitors=allowed&curfew=none",
    },
    { name: "3 beds free, one university", path: "/browse?university=University%20of%20Peradeniya&freeBeds=3" },
    { name: "availability confirmed in the last 7 days", path: "/browse?confirmed=7" },
    { name: "phone confirmed only", path: "/browse?phone=confirmed" },
    { name: "nearest first", path: "/browse?university=University%20of%20Moratuwa&sort=nearest" },
    { name: "nearest first, deep page", path: "/browse?university=University%20of%20Moratuwa&sort=nearest&page=200" },
    { name: "within 2 km", path: "/browse?university=University%20of%20Colombo&within=2" },
    {
      name: "within 5 km of a faculty, single rooms, nearest first",
      path: "/browse?university=University%20of%20Sri%20Jayewardenepura&faculty=Faculty%20of%20Engineering%20(new)&within=5&propertyType=single&sort=nearest",
    },
    { name: "one word matching most listings", path: "/browse?search=room" },
    { name: "rare word", path: "/browse?search=dematagoda" },
    { name: "two-word prefix search", path: "/browse?search=furn%20sing" },
    { name: "three common words", path: "/browse?search=room%20near%20campus" },
    { name: "search and a filter", path: "/browse?search=room%20near%20campus&university=University%20of%20Jaffna" },
    { name: "location substring", path: "/search/Kandy" },
    { name: "location prefix", path: "/search/morat" },
    { name: "rare location", path: "/search/Dematagoda" },
    { name: "university plus location", path: "/search/Peradeniya/university-of-peradeniya" },
  ];
}

function option(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)];
}

/** Runs each shape `runs` times after one warm-up and prints median and p95 in milliseconds. */
export async function timeShapes(
  shapes: SearchShape[],
  runs: number,
  run: (shape: SearchShape) => Promise<string>,
  print: (line: string) => void = console.log,
): Promise<{ name: string; path: string; p50: number; p95: number; found: string }[]> {
  const results = [];
  print(`${"shape".padEnd(52)} ${"p50".padStart(8)} ${"p95".padStart(8)}  found`);
  for (const shape of shapes) {
    const found = await run(shape);
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      await run(shape);
      samples.push(performance.now() - t0);
    }
    samples.sort((a, b) => a - b);
    const result = { ...shape, p50: percentile(samples, 0.5), p95: percentile(samples, 0.95), found };
    print(
      `${shape.name.padEnd(52)} ${result.p50.toFixed(1).padStart(5)} ms ${result.p95.toFixed(1).padStart(5)} ms  ${found}`,
    );
    results.push(result);
  }
  return results;
}

async function main(argv: string[]): Promise<void> {
  const runs = Number(option(argv, "runs") ?? 20);
  const baseUrl = option(argv, "base-url");
  if (baseUrl) {
    await timeShapes(searchShapes(), runs, async (shape) => {
      const response = await fetch(`${baseUrl}${shape.path}`);
      const html = await response.text();
      if (response.status !== 200) throw new Error(`${shape.path} answered ${response.status}`);
      return html.match(/(More than )?[\d,]+ boarding places? found/)?.[0] ?? "?";
    });
    return;
  }
  // App modules use extensionless imports and the `~` alias: scripts/app-modules.ts resolves them (ADR 071).
  const { withAppModules } = await import("./app-modules.ts");
  const target = { databaseUrl: option(argv, "database-url"), dataDir: option(argv, "data-dir") ?? "./data" };
  const copies = option(argv, "photo-copies");
  if (copies) {
    await withAppModules(async (load) => {
      const { timeCopyLookups } = await load<typeof import("../app/bench/photo-copies.server.ts")>(
        "/app/bench/photo-copies.server.ts",
      );
      const listings = Number(copies);
      const result = await timeCopyLookups(target, { listings, runs: Number(option(argv, "runs") ?? 200) });
      console.log(
        `copied-photo lookup at ${listings.toLocaleString("en-US")} listings (${result.fingerprints.toLocaleString("en-US")} fingerprints): ` +
          `p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms; copies found in ${result.found} lookups`,
      );
    });
    return;
  }
  const descriptions = option(argv, "description-copies");
  if (descriptions) {
    await withAppModules(async (load) => {
      const { timeDescriptionLookups } = await load<typeof import("../app/bench/description-copies.server.ts")>(
        "/app/bench/description-copies.server.ts",
      );
      const listings = Number(descriptions);
      const result = await timeDescriptionLookups(target, { listings, runs: Number(option(argv, "runs") ?? 200) });
      console.log(
        `near-duplicate description lookup at ${listings.toLocaleString("en-US")} listings: ` +
          `p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms; copies found in ${result.found} of ${result.copies} lookups`,
      );
    });
    return;
  }
  await withAppModules(async (load) => {
    const { timeSearchShapes } = await load<typeof import("../app/bench/search-shapes.server.ts")>(
      "/app/bench/search-shapes.server.ts",
    );
    await timeSearchShapes(target, searchShapes(), (shapes, run) => timeShapes(shapes, runs, run));
  });
}

if (import.meta.main) await main(process.argv.slice(2));
