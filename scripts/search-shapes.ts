/**
 * The shapes of search the database must answer quickly at any size: one of
 * each kind of query the browse page can ask (README "Budgets": p95 ≤ 50 ms
 * at 1,000,000 listings). The values are ones synthetic listings use
 * (app/seed/), so each shape finds what it would find on the real site.
 */
export function searchShapes(): { name: string; path: string }[] {
  return [
    { name: "newest first", path: "/browse" },
    { name: "deep page", path: "/browse?page=500" },
    { name: "university", path: "/browse?university=University%20of%20Moratuwa" },
    { name: "faculty", path: "/browse?university=University%20of%20Colombo&faculty=Faculty%20of%20Medicine%20Colombo" },
    { name: "city", path: "/browse?city=kandy" },
    { name: "property type", path: "/browse?propertyType=single" },
    { name: "gender", path: "/browse?gender=female" },
    { name: "min price", path: "/browse?minPrice=40000" },
    { name: "max price", path: "/browse?maxPrice=10000" },
    {
      name: "combined filters",
      path: "/browse?university=University%20of%20Moratuwa&maxPrice=30000&propertyType=single&gender=male",
    },
    { name: "common word", path: "/browse?search=room" },
    { name: "rare word", path: "/browse?search=Mahara" },
    { name: "two-word prefix", path: "/browse?search=room%20near" },
    { name: "two prefixes", path: "/browse?search=furni%20moratu" },
    { name: "location substring", path: "/search/Kandy" },
    { name: "location and university", path: "/search/Katubedda/university-of-moratuwa" },
  ];
}
