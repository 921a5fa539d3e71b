export const info = {
  about: {
    meta: {
      title: "About us | {{siteName}}",
      description:
        "{{siteName}} helps university students in Sri Lanka find boarding places near their campus, and lets landlords list for free.",
    },
    heading: "About {{siteName}}",
    intro:
      "{{siteName}} is where university students in Sri Lanka find boarding places near their campus, and where landlords advertise them for free.",
    missionHeading: "Our mission",
    mission:
      "Moving to university is a big step. Finding a safe, affordable place to stay should not be the hard part. We put boarding places near every major campus in one place, with the rent, key money and the owner's phone number up front, so you can compare, call and visit with confidence.",
    valuesHeading: "What we value",
    values: {
      student: {
        title: "Student-First Approach",
        text: "Every decision starts with what helps a student find a good place, on a phone, on mobile data.",
      },
      quick: {
        title: "Quick and Easy",
        text: "Search in seconds, see the facts first, and call the owner with one tap.",
      },
      innovation: {
        title: "Innovation",
        text: "We keep improving search, safety and speed, and we listen to what students and owners tell us.",
      },
      community: {
        title: "Community",
        text: "Students and landlords help each other, and everyone can report a listing that looks wrong.",
      },
    },
    statsHeading: "{{siteName}} today",
    faqHeading: "Frequently asked questions",
    faq: {
      what: {
        q: "What is {{siteName}}?",
        a: "{{siteName}} is a free website where university students in Sri Lanka find boarding places (rooms, shared rooms, annexes, apartments and hostels) near their campus, and where landlords advertise them.",
      },
      free: {
        q: "Is it free for students?",
        a: "Yes. Searching, opening listings and calling owners is free, and you don't need an account.",
      },
      verified: {
        q: "Are owners and listings verified?",
        a: "No. {{siteName}} does not verify owners or listings. Please check for yourself: visit the place in person, meet the owner, read the agreement, and never pay anything before you have seen the place.",
      },
      landlords: {
        q: "Can landlords list for free?",
        a: "Yes. Landlords create a free account and can post up to 3 listings at a time.",
      },
      universities: {
        q: "Which universities are supported?",
        a: "All major universities: {{count}} in our directory, including the universities of Colombo, Peradeniya, Moratuwa, Kelaniya, Jaffna, Ruhuna and Sri Jayewardenepura, the Open University, SLIIT and KDU.",
      },
      support: {
        q: "How do I get help?",
        a: "Email us at {{email}} or use the contact form. We aim to reply within 24 hours.",
      },
      report: {
        q: "How do I report a listing?",
        a: "Open the listing and press 'Report This Listing'. Tell us what is wrong and we will review it.",
      },
    },
    browse: "Browse Listings",
    contact: "Contact Us",
  },
  contact: {
    meta: {
      title: "Contact us | {{siteName}}",
      description: "Questions, problems or ideas? Email, call or message the {{siteName}} team. We reply within 24 hours.",
    },
    heading: "Contact us",
    intro: "Questions, problems or ideas? Send us a message and we'll get back to you within 24 hours.",
    cards: {
      email: {
        title: "Email",
        text: "Write to us any time.",
      },
      phone: {
        title: "WhatsApp or call",
        number: "+94 11 234 5678",
        tel: "+94112345678",
        whatsapp: "https://wa.me/94112345678",
        whatsappLink: "Message on WhatsApp",
        hours: "Monday to Friday 9:00 AM to 6:00 PM",
      },
      report: {
        title: "Report a listing",
        text: "Seen a fake or unsafe listing? Press 'Report This Listing' on the listing page, or choose 'Report an Issue' in the form below.",
      },
    },
    form: {
      heading: "Send us a message",
      name: "Your name",
      email: "Email address",
      emailHint: "We reply to this address.",
      subject: "Subject",
      chooseSubject: "Choose a subject",
      message: "Message",
      messageHint: "Up to 5,000 characters.",
      honeypot: "Leave this field empty",
      submit: "Send message",
      sending: "Sending...",
    },
    subjects: {
      "General Inquiry": "General Inquiry",
      "Technical Support": "Technical Support",
      "Listing a Property": "Listing a Property",
      "Report an Issue": "Report an Issue",
      "Partnership Opportunity": "Partnership Opportunity",
      "Feedback & Suggestions": "Feedback & Suggestions",
      Other: "Other",
    },
    aboutListing: "About listing #{{id}}: ",
    successTitle: "Message Sent Successfully!",
    successText: "Thank you for getting in touch. We'll reply within 24 hours.",
    sendAnother: "Send another message",
    failed: "Failed to send message. Please try again or contact us directly at {{email}}",
    errors: {
      nameRequired: "Please enter your name.",
      nameTooLong: "Your name must be 100 characters or fewer.",
      emailRequired: "Please enter your email address.",
      emailInvalid: "Please enter a valid email address.",
      emailTooLong: "Your email address must be 254 characters or fewer.",
      subjectRequired: "Please choose a subject.",
      messageRequired: "Please enter your message.",
      messageTooLong: "Your message must be 5,000 characters or fewer.",
    },
  },
  privacy: {
    meta: {
      title: "Privacy Policy | {{siteName}}",
      description: "What {{siteName}} stores, why, and what we never do with it.",
    },
    heading: "Privacy Policy",
    intro: "This page explains, in plain words, what {{siteName}} stores about you and why.",
    sections: [
      {
        heading: "What we store",
        items: [
          "Listings that owners post: the text, photos, rent, location, contact name and phone number.",
          "Account details for owners: name, email address, phone number and a securely hashed password (never the password itself).",
          "Messages you send through the contact form: your name, email address, subject and message.",
          "Reports about listings, with the details the reporter gives.",
          "View counts for listings. To count a view only once per visit we use an anonymous cookie; it does not identify you.",
        ],
      },
      {
        heading: "How we use it",
        items: [
          "To show listings, so students can find places and call owners.",
          "To answer your messages and reports.",
          "To keep the site safe, for example to stop spam and remove listings that break our terms.",
        ],
      },
      {
        heading: "What we never do",
        items: [
          "We do not sell your data, and we do not share it with advertisers.",
          "We do not use advertising or tracking cookies.",
        ],
      },
      {
        heading: "Phone numbers on listings",
        items: [
          "An owner's contact name and phone number are shown on their listing so students can call. Owners choose what to publish and can change or delete it at any time.",
        ],
      },
      {
        heading: "Your choices",
        items: [
          "Owners can edit or delete their listings at any time.",
          "To see, correct or delete anything we hold about you, email us at {{email}}.",
        ],
      },
    ],
    contact: "Questions about privacy? Email <mail>{{email}}</mail>.",
  },
  terms: {
    meta: {
      title: "Terms of Service | {{siteName}}",
      description: "The rules for using {{siteName}}, and how to stay safe when renting a boarding place.",
    },
    heading: "Terms of Service",
    intro: "By using {{siteName}} you agree to these terms. They are short; please read them.",
    sections: [
      {
        heading: "Using {{siteName}}",
        items: [
          "Browsing listings and calling owners is free and needs no account.",
          "Landlords need a free account to post listings, and may have up to 3 listings at a time.",
          "Be honest and respectful. Do not post false, misleading, offensive or unlawful content.",
        ],
      },
      {
        heading: "Listings",
        items: [
          "Owners are responsible for their listings being true, up to date and lawful.",
          "Listings run for 30 days and can be renewed.",
          "We may hide or remove listings, and suspend accounts, that break these terms.",
        ],
      },
      {
        heading: "We do not verify owners or listings",
        items: [
          "{{siteName}} does not check who owners are or whether listings are accurate. You must verify everything yourself before you agree to anything.",
        ],
      },
      {
        heading: "Stay safe",
        items: [
          "Never pay before visiting the place.",
          "Visit in person and meet the owner.",
          "Check the room and its amenities, and read the agreement before signing.",
          "Be careful with anyone who asks for an advance payment before you have seen the place.",
        ],
      },
      {
        heading: "Transactions between users",
        items: [
          "{{siteName}} is not a party to any agreement between students and owners, and is not responsible for payments, deposits, key money or disputes between them.",
        ],
      },
      {
        heading: "Reporting problems",
        items: [
          "If a listing looks wrong, press 'Report This Listing' on its page, or contact us.",
        ],
      },
    ],
    contact: "Questions about these terms? Email <mail>{{email}}</mail>.",
  },
  login: {
    meta: {
      title: "Log in | {{siteName}}",
      description: "Owner accounts on {{siteName}} open soon.",
    },
    heading: "Log in",
    text: "Owner accounts open soon. Landlords will log in here to post and manage their listings.",
    noAccountNeeded: "You don't need an account to browse listings or call owners.",
  },
  signup: {
    meta: {
      title: "Sign up | {{siteName}}",
      description: "Owner accounts on {{siteName}} open soon. Landlords will list for free.",
    },
    heading: "Sign up",
    text: "Owner accounts open soon. Landlords will sign up here to list their places for free.",
    noAccountNeeded: "You don't need an account to browse listings or call owners.",
  },
  accountsSoon: {
    browse: "Browse Listings",
    contact: "Contact Us",
  },
  notFound: {
    metaTitle: "Page not found | {{siteName}}",
  },
};
