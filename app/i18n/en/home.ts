export const home = {
  meta: {
    title: "{{siteName}} – Boarding places near your university in Sri Lanka",
    description:
      "Find rooms, shared rooms, annexes and apartments near your university in Sri Lanka. Search by campus, city, price and room type, and call owners directly. Free for students.",
  },
  hero: {
    title: "Find a boarding place near your campus",
    subtitle: "Rooms, shared rooms and apartments near Sri Lanka's universities. Free to search, free to list.",
  },
  search: {
    heading: "Search boarding places",
    university: "University",
    anyUniversity: "Any university",
    location: "Nearest city",
    anyLocation: "Any city",
    maxPrice: "Max price per month",
    anyPrice: "Any price",
    under: "Under {{amount}}",
    propertyType: "Room type",
    anyType: "Any room type",
    types: {
      single: "Single Room",
      shared: "Shared Room",
      apartment: "Apartment",
    },
    gender: "Suits",
    genders: {
      any: "Anyone",
      male: "Male students",
      female: "Female students",
    },
    submit: "Search",
  },
  stats: {
    heading: "On {{siteName}} right now",
    listings_one: "boarding place listed",
    listings_other: "boarding places listed",
    universitiesWithListings_one: "university with listings",
    universitiesWithListings_other: "universities with listings",
    universitiesSupported: "universities supported",
  },
  features: {
    heading: "Why students use {{siteName}}",
    items: {
      search: {
        title: "Search near your campus",
        text: "Filter by university, city, price, room type and who the place suits.",
      },
      free: {
        title: "Free for students",
        text: "Searching, opening listings and calling owners costs nothing. No account needed.",
      },
      direct: {
        title: "Call owners directly",
        text: "Every listing shows the owner's phone number. No middleman and no booking fee.",
      },
      report: {
        title: "Report bad listings",
        text: "Something looks wrong? Report it from the listing page and we will look into it.",
      },
    },
  },
  steps: {
    heading: "How it works",
    items: {
      pick: { title: "Pick your university", text: "Choose your campus, or the city you want to live in." },
      budget: { title: "Set your budget", text: "Choose a maximum rent, the room type and who the place suits." },
      compare: { title: "Compare places", text: "Look at photos, rent, key money and amenities." },
      call: { title: "Call the owner", text: "Ask your questions and agree a time to visit." },
      visit: { title: "Visit before you pay", text: "See the room in person and meet the owner. Never pay before visiting." },
      move: { title: "Move in", text: "Agree the terms in writing, pay safely and settle in." },
    },
  },
  testimonials: {
    heading: "What students and owners say",
    items: {
      moratuwa: {
        quote: "I found a shared room a short walk from campus in my first week. Calling the owner directly made it easy.",
        who: "Student, University of Moratuwa",
      },
      peradeniya: {
        quote: "My parents and I compared places from home before we travelled to Kandy, so we only had to visit two.",
        who: "First-year student, University of Peradeniya",
      },
      owner: {
        quote: "Listing my annex was free and took a few minutes. I like that students call me directly.",
        who: "Owner, Nugegoda",
      },
    },
  },
  cta: {
    heading: "Ready to find your place?",
    text: "Browse every listing, or put your room in front of students for free.",
    browse: "Browse listings",
    list: "List your place",
  },
};
