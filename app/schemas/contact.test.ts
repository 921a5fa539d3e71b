import { describe, expect, it } from "vitest";
import { CONTACT_SUBJECTS, parseContactForm } from "./contact";

function form(values: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.set(key, value);
  return data;
}

const valid = { name: "Nimal Perera", email: "nimal@example.com", subject: "General Inquiry", message: "Hello there" };

describe("parseContactForm", () => {
  it("accepts a complete message and trims it", () => {
    const result = parseContactForm(form({ ...valid, name: "  Nimal Perera ", message: " Hello there \n" }));
    expect(result).toMatchObject({ ok: true, data: valid });
  });

  it.each([
    {
      case: "reports one required message per empty field",
      sent: {} as Record<string, string>,
      errors: {
        name: "info.contact.errors.nameRequired",
        email: "info.contact.errors.emailRequired",
        subject: "info.contact.errors.subjectRequired",
        message: "info.contact.errors.messageRequired",
      },
    },
    {
      case: "rejects a malformed email, an unknown subject and over-long text, keeping the values",
      sent: { name: "x".repeat(101), email: "not-an-email", subject: "Free money", message: "m".repeat(5001) },
      errors: {
        name: "info.contact.errors.nameTooLong",
        email: "info.contact.errors.emailInvalid",
        subject: "info.contact.errors.subjectRequired",
        message: "info.contact.errors.messageTooLong",
      },
    },
  ])("$case", ({ sent, errors }) => {
    const result = parseContactForm(form(sent));
    expect(result.ok ? null : result.errors).toEqual(errors);
    expect(result.values).toEqual({ name: "", email: "", subject: "", message: "", ...sent });
  });

  it("accepts the longest allowed values and every listed subject", () => {
    for (const subject of CONTACT_SUBJECTS) {
      const email = `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(61)}.${"d".repeat(60)}.lk`;
      expect(email.length).toBe(254);
      const result = parseContactForm(form({ name: "n".repeat(100), email, subject, message: "m".repeat(5000) }));
      expect(result.ok).toBe(true);
    }
  });
});
