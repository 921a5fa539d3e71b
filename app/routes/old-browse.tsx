export default function Page() {
  return <div className="p-8">old-browse (coming soon)</div>;
}
