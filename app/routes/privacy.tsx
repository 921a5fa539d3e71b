export default function Page() {
  return <div className="p-8">privacy (coming soon)</div>;
}
