export default function Page() {
  return <div className="p-8">home (coming soon)</div>;
}
