export default function Page() {
  return <div className="p-8">browse (coming soon)</div>;
}
