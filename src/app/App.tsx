/** Placeholder shell; the full app arrives with issue #5. */
export function App() {
  return (
    <main>
      <h1>Aerie</h1>
      <p>RAPTOR tree retrieval that runs entirely in your browser.</p>
    </main>
  );
}
