// Placeholder until this page's feature is built.
export default function OrdersPage() {
  return (
    <section className="mx-auto max-w-3xl px-4 py-16">
      <h1 className="text-2xl font-semibold">My Orders</h1>
      <p className="mt-2 text-slate-600">This page is coming soon.</p>
    </section>
  );
}
