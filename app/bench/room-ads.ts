import { createRandom, type Random } from "~/seed/random";

/**
 * Room ads as owners write them, for the near-duplicate description tests and benchmark
 * (ADR 079): each ad is a handful of sentences drawn from word lists, so two
 * ads of different owners share phrases ('attached bathroom', 'no smoking')
 * as real ones do, and a copier's edits of one ad are the edits copiers make.
 */

const KINDS = [
  "single room",
  "room",
  "annex",
  "upstairs annex",
  "shared room",
  "hostel bed",
  "two-bedroom house",
  "small apartment",
  "boarding room",
  "furnished room",
];
const WHO = [
  "a female student",
  "a male student",
  "two girls",
  "three boys",
  "a working lady",
  "university students",
  "medical students",
  "a couple",
  "female undergraduates",
  "a postgraduate student",
];
const PLACES = [
  "Katubedda",
  "Moratuwa",
  "Kelaniya",
  "Dalugama",
  "Peradeniya",
  "Kiribathkumbura",
  "Nugegoda",
  "Gangodawila",
  "Wellawatte",
  "Thirunelvely",
  "Kandy",
  "Galle",
  "Wakwella",
  "Ragama",
  "Borella",
  "Dehiwala",
];
const NEAR = [
  "the university main gate",
  "the faculty of engineering",
  "the bus stand",
  "the railway station",
  "the hospital",
  "the campus back gate",
  "the junction",
  "Keells supermarket",
  "the temple",
  "the lake road",
];
const HOW_FAR = [
  "five minutes walk",
  "ten minutes walk",
  "two minutes walk",
  "fifteen minutes by bus",
  "a short tuk ride",
  "walking distance",
  "twenty minutes by train",
];
const HOUSE = [
  "The house is in a quiet lane with a small garden.",
  "It is a new house with tiled floors and plenty of light.",
  "We are a small family living downstairs and the room is upstairs with a separate entrance.",
  "The annex is behind the main house and has its own gate.",
  "The building has three floors and the room is on the second floor.",
  "It is an old colonial house with high ceilings, cool even in April.",
  "The place is near the main road but the room faces the back garden.",
  "Our home is a two storey house and the landlady lives on the ground floor.",
  "It is a hostel run by a retired teacher who lives on the premises.",
  "The apartment is in a gated complex with a security guard at night.",
];
const GIVEN = [
  "A bed, mattress, table, chair and wardrobe are provided.",
  "Fully furnished with a study table, a reading lamp and a ceiling fan.",
  "The room has a fan, a clothes rack and a mosquito net.",
  "Air conditioned room with a new mattress and a large cupboard.",
  "Unfurnished, but we can give a bed if needed.",
  "Each girl gets her own bed, a locker and a shelf for books.",
  "Kitchen with a gas cooker and a fridge can be used.",
  "There is a washing machine and a place to dry clothes on the roof.",
  "Wi-Fi is included and works well for online lectures.",
  "Hot water in the bathroom and a water filter in the kitchen.",
  "Parking for a motorbike or a bicycle inside the gate.",
  "Meals can be arranged, rice and curry for lunch and dinner.",
];
const BATH = [
  "Attached bathroom.",
  "Common bathroom shared with one other student.",
  "Separate bathroom outside the room.",
  "Attached bathroom with a hot water shower.",
  "Two bathrooms for four students.",
];
const RULES = [
  "No smoking or alcohol please.",
  "Gate closes at ten at night.",
  "Visitors are allowed in the living room until eight.",
  "Only girls, no male visitors inside.",
  "Please keep the place clean and be quiet after ten.",
  "Cooking is not allowed in the room.",
  "No pets.",
  "Students who study seriously are preferred.",
  "Parents are welcome to visit before you decide.",
];
const MONEY = [
  "Rent is Rs. {rent} per month including water and electricity.",
  "Monthly rent {rent} rupees, electricity separately by the sub meter.",
  "Rs {rent} a month, two months advance.",
  "Rent {rent}/= per month with one month key money.",
  "{rent} rupees per month, bills shared equally.",
  "Price Rs. {rent} monthly, no key money.",
];
const CLOSING = [
  "Call {phone} for more details.",
  "Please call or WhatsApp {phone} after five in the evening.",
  "Contact the owner on {phone}.",
  "Interested students can call {phone} to see the room.",
  "For viewing call {phone}, weekends are best.",
  "SMS or call {phone}.",
];

function phone(rand: Random): string {
  return `07${rand.int(0, 8)} ${rand.int(100, 999)} ${rand.int(1000, 9999)}`;
}

function fill(template: string, rand: Random): string {
  return template.replace("{rent}", String(rand.int(6, 45) * 1000)).replace("{phone}", phone(rand));
}

/** A room ad's sentences (60 to 110 words). */
export function roomAdSentences(rand: Random): string[] {
  const opening = `${rand.pick(["Available", "For rent", "Now available", "Vacancy"])}: ${rand.pick(KINDS)} for ${rand.pick(WHO)} in ${rand.pick(PLACES)}, ${rand.pick(HOW_FAR)} to ${rand.pick(NEAR)}.`;
  return [
    opening,
    rand.pick(HOUSE),
    ...rand.sample(GIVEN, rand.int(2, 4)),
    rand.pick(BATH),
    ...rand.sample(RULES, rand.int(1, 3)),
    fill(rand.pick(MONEY), rand),
    fill(rand.pick(CLOSING), rand),
  ];
}

/** `count` ads of different owners, from one seed. */
export function roomAds(count: number, seed = 79): string[] {
  const rand = createRandom(seed);
  return Array.from({ length: count }, () => roomAdSentences(rand).join(" "));
}

/** What a copier does to another owner's ad, each as a function of its sentences. */
export const COPY_EDITS: { name: string; apply: (sentences: string[], rand: Random) => string }[] = [
  { name: "as it is", apply: (s) => s.join(" ") },
  {
    name: "another phone number",
    apply: (s) => s.join(" ").replace(/07\d \d{3} \d{4}/g, "0719876543"),
  },
  {
    name: "another phone number and rent",
    apply: (s) =>
      s
        .join(" ")
        .replace(/07\d \d{3} \d{4}/g, "076-555-1234")
        .replace(/\d+000/g, "18500"),
  },
  {
    name: "two sentences swapped",
    apply: (s) => {
      const t = [...s];
      [t[1], t[2]] = [t[2], t[1]];
      return t.join(" ");
    },
  },
  {
    name: "two words changed",
    apply: (s) =>
      s
        .join(" ")
        .replace(/\bstudents?\b/, "undergraduate")
        .replace(/\bper month\b|\ba month\b|\bmonthly\b/, "per mensem"),
  },
  {
    name: "upper case and no punctuation",
    apply: (s) =>
      s
        .join(" ")
        .toUpperCase()
        .replace(/[.,:;!]/g, ""),
  },
  {
    name: "one sentence added",
    apply: (s) => [...s, "Call now, the room goes fast!"].join(" "),
  },
  {
    name: "line breaks and emoji",
    apply: (s) => `🏠 ${s.join("\n\n")} 📞`,
  },
];
