/** Text made safe for HTML we write by hand (emails, the plain error page): `& < > " '` become numeric references. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
