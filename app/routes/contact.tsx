export default function Page() {
  return <div className="p-8">contact (coming soon)</div>;
}
