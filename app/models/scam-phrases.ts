/**
 * The scam signals' weights and phrase lists, in one readable place (ADR 077).
 * `scoreListing` (scam-signals.ts) reads them; scam-text.ts normalises both
 * the ad and these phrases the same way (case, Unicode, invisible characters,
 * lookalike letters, digits for letters, spaced-out letters), so a phrase is
 * written here once in its plain spelling.
 *
 * How a phrase matches: its words must follow one another in one sentence of
 * the title or description; the last word may go on ('advance' finds
 * 'advanced', 'ගෙවන්න' finds 'ගෙවන්නට'). Each list has English (en), Sinhala
 * (si), Tamil (ta), and the romanised Sinhala (Singlish, siLatn) and Tamil
 * (Tanglish, taLatn) people type on phones.
 */

export type Script = "en" | "si" | "ta" | "siLatn" | "taLatn";
export type PhraseList = Record<Script, readonly string[]>;

/** A listing whose signals weigh this much or more is held for review (price alone never is). */
export const HOLD_AT = 6;

export const SIGNAL_WEIGHTS = {
  /** Money asked to reserve the place, or before anyone has seen it: the scam itself. Holds alone. */
  "advance-before-viewing": 6,
  /** No viewing possible: nobody can check the place exists. */
  "no-viewing": 4,
  /** The owner is abroad, or the keys come by post or courier. */
  "owner-abroad": 3,
  /** Money by eZ Cash, mCash, bank deposit or 'send money': common in scams, normal for rent. */
  "money-transfer": 3,
  /** Several new accounts used this phone or network within a day. */
  "shared-phone-or-network": 3,
  /** Rent 40% or more below the typical rent of similar places. Never holds alone. */
  "low-rent": 2,
} as const;

export type ScamSignalId = keyof typeof SIGNAL_WEIGHTS;

/** 'Low rent': the rent is at most this share of the typical rent (40% or more below it). */
export const LOW_RENT_SHARE = 0.6;
/** 'Several new accounts': this many accounts (the poster's included) made within NEW_ACCOUNT_WINDOW_MS. */
export const SEVERAL_NEW_ACCOUNTS = 3;
export const NEW_ACCOUNT_WINDOW_MS = 24 * 60 * 60 * 1000;
/** How many words apart a payment and 'before viewing' / 'to reserve' may stand and still count together. */
export const PAIR_WINDOW = 6;
/** How many words before or after a phrase a 'no' or 'not needed' turns it around. */
export const NEGATION_WINDOW = 3;

/**
 * Words that turn the phrase after them around in English and romanised text:
 * 'no advance', 'never pay before viewing', 'do not send money'.
 */
export const NEGATION_BEFORE: readonly string[] = ["no", "not", "never", "dont", "without", "nothing", "nor", "zero"];

/**
 * Words that turn the phrase before them around: Sinhala and Tamil put the
 * 'not' after the verb ('අත්තිකාරම් අවශ්‍ය නැත', 'முற்பணம் தேவையில்லை',
 * 'advance ona naha'). Sinhala and Tamil ones match inside a word too
 * ('නොගෙවන්න', 'தேவையில்லை'); romanised ones are whole words.
 */
export const NEGATION_AFTER: PhraseList = {
  en: ["not needed", "not required", "not necessary", "not asked", "not taken"],
  si: ["නැත", "නැහැ", "නෑ", "එපා", "නොවේ", "නොගෙව", "නොඑව", "නොයව", "නොදම"],
  ta: ["வேண்டாம்", "இல்லை", "கூடாது", "தேவையில்ல", "அவசியமில்ல", "வேண்டியதில்ல"],
  siLatn: ["naha", "nehe", "epa", "nathi", "netha", "ona na", "ona ne", "one ne"],
  taLatn: ["vendam", "vendaam", "illai", "illa", "koodathu", "thevai illai", "thevaiyillai"],
};

/** Words that contain a 'not' but mean 'or' / 'otherwise': they turn nothing around. */
export const NOT_A_NEGATION: readonly string[] = ["නැතහොත්", "නැත්නම්", "නැතිනම්", "இல்லையெனில்", "இல்லாவிட்டால்", "இல்லையென்றால்"];

/** 'Advance before viewing' (1 of 2): a payment or money. */
const PAYMENT: PhraseList = {
  en: ["pay", "paid", "advance", "deposit", "key money", "money"],
  si: ["අත්තිකාරම්", "ඇඩ්වාන්ස්", "මුදල", "මුදල්", "සල්ලි", "ගෙවන්න", "ගෙවිය", "ගෙවීම", "ගෙවා", "තැන්පත්", "එවන්න", "යවන්න", "කී මනි"],
  ta: ["முற்பணம்", "அட்வான்ஸ்", "பணம்", "பணத்தை", "செலுத்த", "கட்டுங்கள்", "கட்டவும்", "கட்டணம்", "அனுப்ப", "வைப்பு", "டெபாசிட்"],
  siLatn: ["advance", "salli", "mudal", "gewanna", "gevanna", "ewanna", "evanna", "yawanna"],
  taLatn: ["advance", "panam", "panatha", "kattunga", "kattanum", "anuppu", "seluththa", "selutha"],
};

/** 'Advance before viewing' (2 of 2): before a viewing, or to reserve or hold the place. */
const BEFORE_VIEWING: PhraseList = {
  en: [
    "before viewing",
    "before the viewing",
    "before a viewing",
    "before visiting",
    "before the visit",
    "before a visit",
    "before you view",
    "before you visit",
    "before you see",
    "before you come",
    "before coming",
    "before seeing",
    "before inspection",
    "without viewing",
    "without seeing",
    "to reserve",
    "to book",
    "to hold the",
    "to secure the",
  ],
  si: [
    "බැලීමට පෙර",
    "බැලීමට කලින්",
    "බලන්න කලින්",
    "බලන්න පෙර",
    "බලන්න එන්න කලින්",
    "නැරඹීමට පෙර",
    "පැමිණීමට පෙර",
    "එන්න කලින්",
    "නොබලා",
    "වෙන් කර ගැනීමට",
    "වෙන්කර ගැනීමට",
    "වෙන් කරගන්න",
    "වෙන්කරගන්න",
    "වෙන් කර ගන්න",
    "වෙන් කිරීමට",
    "රිසර්ව්",
    "බුක් කර",
  ],
  ta: [
    "பார்ப்பதற்கு முன்",
    "பார்க்கும் முன்",
    "பார்க்க முன்",
    "பார்வையிடும் முன்",
    "பார்வையிடுவதற்கு முன்",
    "வருவதற்கு முன்",
    "பார்க்காமல்",
    "முன்பதிவு",
    "ரிசர்வ்",
    "புக் செய்ய",
  ],
  siLatn: [
    "balanna kalin",
    "balanna issella",
    "balanna enna kalin",
    "balanna pera",
    "enna kalin",
    "nobala",
    "reserve karanna",
    "reserve kara",
    "reserve karaganna",
    "book karanna",
    "book kara",
    "wen karaganna",
    "wen kara ganna",
  ],
  taLatn: [
    "paarkka munnadi",
    "paakka munnadi",
    "parkka munnadi",
    "paarpatharku mun",
    "varuvatharku mun",
    "vara munnadi",
    "reserve panna",
    "reserve pannunga",
    "book panna",
    "book pannunga",
    "munpathivu",
  ],
};

/**
 * A contact word between a payment and 'before viewing' means the 'before'
 * belongs to the call ('rent paid monthly, call before coming'): no pair.
 */
const CONTACT_WORDS: PhraseList = {
  en: ["call", "phone", "contact", "whatsapp", "message", "msg", "sms", "text", "inform", "tell"],
  si: ["කතා", "අමතන්න", "දන්වන්න", "පණිවිඩ", "කෝල්"],
  ta: ["அழை", "தொடர்பு", "தெரிவி", "செய்தி"],
  siLatn: ["kiyanna", "katha"],
  taLatn: ["sollunga", "azhaiyunga"],
};

/** Said in one sentence with a payment, these mean it comes after the viewing: honest. */
const AFTER_VIEWING: PhraseList = {
  en: [
    "after viewing",
    "after the viewing",
    "after a viewing",
    "after you view",
    "after you visit",
    "after you see",
    "after seeing",
    "after visiting",
    "after the visit",
    "after inspection",
    "on the day you move",
    "when you move in",
  ],
  si: ["බැලීමෙන් පසු", "බැලුවාට පසු", "බැලුවාට පස්සේ", "බැලුවට පස්සේ", "බලලා", "පැමිණි පසු", "ආවට පස්සේ"],
  ta: ["பார்த்த பின்", "பார்த்த பிறகு", "பார்வையிட்ட பின்", "பார்வையிட்ட பிறகு", "பார்த்த பின்னர்"],
  siLatn: ["balala", "baluwata passe", "baluwama", "aawata passe", "awata passe"],
  taLatn: ["paartha piragu", "partha piragu", "paatha piragu", "paartha pin"],
};

/** Phrases that are the scam on their own, with no second half needed. */
const ADVANCE_DIRECT: PhraseList = {
  en: [
    "reservation fee",
    "booking fee",
    "holding fee",
    "holding deposit",
    "booking deposit",
    "reservation deposit",
    "pay to reserve",
    "pay first",
    "first pay",
  ],
  si: ["වෙන් කිරීමේ ගාස්තු", "වෙන්කිරීමේ ගාස්තු", "රිසර්ව් ගාස්තු", "බුකින් ගාස්තු"],
  ta: ["முன்பதிவு கட்டணம்", "முன்பதிவுக் கட்டணம்"],
  siLatn: ["reserve fee", "booking fee eka", "mulinma salli", "kalin salli"],
  taLatn: ["munpathivu kattanam", "booking kattanam", "mudhalil panam"],
};

const MONEY_TRANSFER: PhraseList = {
  en: [
    "ez cash",
    "ezcash",
    "easy cash",
    "mcash",
    "m cash",
    "frimi",
    "bank deposit",
    "deposit it to",
    "deposit to my",
    "deposit to the account",
    "deposit into my",
    "my account number",
    "account number",
    "bank transfer",
    "online transfer",
    "transfer the money",
    "send money",
    "send the money",
    "send me the money",
    "send the advance",
    "send an advance",
    "send the deposit",
    "send a deposit",
    "western union",
    "moneygram",
    "money gram",
  ],
  si: [
    "ඊසී කෑෂ්",
    "ඊසි කෑෂ්",
    "ඊ සී කෑෂ්",
    "ඊසී කැෂ්",
    "එම් කෑෂ්",
    "එම්කෑෂ්",
    "බැංකු තැන්පතු",
    "බැංකුවට දමන්න",
    "බැංකුවට දාන්න",
    "ගිණුමට දමන්න",
    "ගිණුමට දාන්න",
    "ගිණුමට බැර",
    "ගිණුම් අංකය",
    "මුදල් එවන්න",
    "මුදල් යවන්න",
    "මුදල් දමන්න",
    "සල්ලි එවන්න",
    "සල්ලි යවන්න",
    "සල්ලි දාන්න",
  ],
  ta: [
    "ஈசி கேஷ்",
    "ஈஸி கேஷ்",
    "ஈசி காஷ்",
    "எம் கேஷ்",
    "வங்கி வைப்பு",
    "வங்கியில் வைப்பு",
    "வங்கிக் கணக்கில்",
    "வங்கி கணக்கில்",
    "கணக்கில் வைப்பு",
    "கணக்கு இலக்கம்",
    "கணக்கிற்கு அனுப்ப",
    "பணம் அனுப்ப",
    "பணத்தை அனுப்ப",
    "பணம் போடுங்கள்",
  ],
  siLatn: [
    "ez cash karanna",
    "account ekata",
    "bank ekata",
    "deposit karanna",
    "salli danna",
    "salli dala",
    "salli ewanna",
    "salli evanna",
    "mudal ewanna",
    "mudal yawanna",
  ],
  taLatn: [
    "account la podunga",
    "accountla podunga",
    "bank la podunga",
    "bank la deposit",
    "panam anuppu",
    "panatha anuppu",
    "panam podunga",
  ],
};

const OWNER_ABROAD: PhraseList = {
  en: [
    "i am abroad",
    "im abroad",
    "i am overseas",
    "im overseas",
    "i am out of the country",
    "im out of the country",
    "currently abroad",
    "currently overseas",
    "living abroad",
    "working abroad",
    "working overseas",
    "owner is abroad",
    "owner is overseas",
    "out of sri lanka",
    "keys by post",
    "keys by courier",
    "key by post",
    "key by courier",
    "keys via",
    "post the keys",
    "post you the keys",
    "courier the keys",
    "courier you the keys",
    "send the keys",
    "send you the keys",
    "keys will be sent",
    "keys will be posted",
    "keys will be couriered",
    "key will be sent",
  ],
  si: [
    "විදේශයක",
    "විදේශයේ",
    "විදෙස්ගත",
    "විදෙස් රටක",
    "පිටරට",
    "පිට රට",
    "යතුරු තැපෑලෙන්",
    "යතුර තැපෑලෙන්",
    "යතුරු තැපැලෙන්",
    "යතුර තැපැලෙන්",
    "යතුරු කුරියර්",
    "යතුර කුරියර්",
    "යතුරු එවන්නම්",
    "යතුර එවන්නම්",
    "යතුරු එවනවා",
    "යතුර එවනවා",
  ],
  ta: [
    "வெளிநாட்டில்",
    "வெளிநாட்டிலிருந்து",
    "சாவியை அனுப்ப",
    "சாவி அனுப்ப",
    "சாவியை தபால்",
    "சாவி தபால்",
    "சாவியை கூரியர்",
    "சாவி கூரியர்",
    "தபாலில் சாவி",
    "கூரியரில் சாவி",
  ],
  siLatn: [
    "pita rata",
    "pitarata",
    "piti rata",
    "videsha",
    "vidhesha",
    "vidhesa",
    "yathura post",
    "yathuru post",
    "yathura courier",
    "yathuru courier",
    "yathura ewannam",
    "yathuru ewannam",
  ],
  taLatn: [
    "velinaattil",
    "velinattil",
    "veli naattil",
    "veli naatil",
    "saavi anuppu",
    "savi anuppu",
    "chavi anuppu",
    "saavi courier",
    "savi courier",
  ],
};

const NO_VIEWING: PhraseList = {
  en: [
    "no viewing",
    "no viewings",
    "no visits",
    "no inspection",
    "viewing not possible",
    "viewings not possible",
    "viewing is not possible",
    "viewing not allowed",
    "viewing is not allowed",
    "not possible to view",
    "not available for viewing",
    "cannot view",
    "cant view",
    "cannot be viewed",
    "cant be viewed",
    "cannot show you",
    "cant show you",
    "cannot show the",
    "cant show the",
    "unable to show",
  ],
  si: [
    "බලන්න බැහැ",
    "බලන්න බෑ",
    "බලන්න බැ",
    "බලන්න එන්න බැහැ",
    "බලන්න එන්න බෑ",
    "බැලීමට නොහැක",
    "බැලිය නොහැක",
    "නැරඹීමට නොහැක",
    "පෙන්වීමට නොහැක",
    "පෙන්වන්න බැහැ",
    "පෙන්වන්න බෑ",
    "බලන්න දෙන්න බැහැ",
    "බලන්න දෙන්න බෑ",
  ],
  ta: [
    "பார்க்க முடியாது",
    "பார்வையிட முடியாது",
    "காட்ட முடியாது",
    "நேரில் பார்க்க முடியாது",
    "பார்வையிட அனுமதி இல்லை",
    "பார்க்க அனுமதி இல்லை",
  ],
  siLatn: ["balanna ba", "balanna baha", "balanna be", "balanna enna ba", "penanna ba", "pennanna ba", "pennanna baha"],
  taLatn: ["paarkka mudiyathu", "paakka mudiyathu", "paakka mudiyadhu", "parkka mudiyathu", "kaatta mudiyathu"],
};

/** 'No viewing' phrases that are honest house rules, not a refusal to show the place. */
const NO_VIEWING_RULES: PhraseList = {
  en: [
    "no viewing after",
    "no viewings after",
    "no viewing before",
    "no viewings before",
    "no viewing on",
    "no viewings on",
    "no viewing between",
    "no viewing without",
    "no viewings without",
    "no viewing fee",
    "no viewing charge",
    "no visits after",
    "no visits on",
    "cannot view on",
    "cant view on",
  ],
  si: [],
  ta: [],
  siLatn: [],
  taLatn: [],
};

/** The phrase rules for each text signal (the price and account signals read numbers instead). */
export const PHRASE_RULES = {
  "advance-before-viewing": {
    direct: ADVANCE_DIRECT,
    pair: [PAYMENT, BEFORE_VIEWING],
    pairBrokenBy: CONTACT_WORDS,
    cancelledInSentenceBy: AFTER_VIEWING,
    negatable: true,
  },
  "money-transfer": { direct: MONEY_TRANSFER, negatable: true },
  "owner-abroad": { direct: OWNER_ABROAD, negatable: true },
  // The phrases say 'no' themselves; honest house rules ('no viewing after 8 pm') are exceptions.
  "no-viewing": { direct: NO_VIEWING, exceptions: NO_VIEWING_RULES, negatable: false },
} as const satisfies Record<string, PhraseRule>;

export type PhraseRule = {
  /** Any one of these is the signal. */
  direct: PhraseList;
  /** One of each list, at most PAIR_WINDOW words apart in one sentence, is the signal too. */
  pair?: readonly [PhraseList, PhraseList];
  /** One of these between the two halves breaks the pair. */
  pairBrokenBy?: PhraseList;
  /** A sentence with one of these has no pair in it (the payment comes after the viewing). */
  cancelledInSentenceBy?: PhraseList;
  /** A phrase found where one of these starts is not the signal. */
  exceptions?: PhraseList;
  /** A 'no' before or a 'not needed' after a phrase turns it around. */
  negatable: boolean;
};
