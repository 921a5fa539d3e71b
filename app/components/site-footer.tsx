export function SiteFooter() {
  return <footer className="border-t border-slate-200 p-4 text-sm text-slate-600">© 2024 Bodima</footer>;
}
