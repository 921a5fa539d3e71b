export default function Page() {
  return <div className="p-8">login (coming soon)</div>;
}
