export default function Page() {
  return <div className="p-8">terms (coming soon)</div>;
}
