export default function Page() {
  return <div className="p-8">signup (coming soon)</div>;
}
