export default function Page() {
  return <div className="p-8">not-found (coming soon)</div>;
}
