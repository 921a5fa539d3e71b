export default function Page() {
  return <div className="p-8">listing (coming soon)</div>;
}
