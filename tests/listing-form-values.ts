// No imports: plain Node loads this too (scripts/soak/traffic.ts posts it through the real form).

/** A valid post/edit form as the browser sends it (strings); override what the test is about. */
export const LISTING_FORM = {
  title: "Bright room near campus",
  description: "A quiet room with a desk and a fan.",
  price: "18000",
  keymoneyFee: "20000",
  university: "University of Moratuwa",
  faculty: "Main Campus",
  propertyType: "single",
  gender: "female",
  mapLink: "",
  location: "Katubedda",
  contactName: "",
  contactPhone: "",
} as const;
