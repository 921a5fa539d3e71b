export default function Page() {
  return <div className="p-8">about (coming soon)</div>;
}
