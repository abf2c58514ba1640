/** Application shell (placeholder until the map app lands). */
export function App() {
  return (
    <main>
      <h1>indapi3</h1>
      <p>Gridded indicators for Africa south of the Sahara.</p>
    </main>
  );
}
